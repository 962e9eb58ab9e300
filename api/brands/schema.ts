// Contracts of the brand endpoints, and the brand keys a send may override.
import { z } from 'zod';
import { hasWhitespaceOrControl } from '../../lib/urls.ts';
import { BRAND_FONTS, SOCIAL_NETWORKS } from '../../models/Brand.ts';
import { flag, numericId, PageMeta, pageQuery, resource, sortOrder, named } from '../schema-helpers.ts';

/** Brand URLs: https only (they are shown to recipients and written into pages). */
export const httpsUrl = z
  .string()
  .max(2048)
  .refine((url) => !hasWhitespaceOrControl(url), 'a URL may not contain whitespace or control characters')
  .pipe(z.url({ protocol: /^https$/, error: 'expected an https URL' }))
  .meta({ format: 'uri' });
const colour = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'expected a colour as #rgb or #rrggbb');
const text = (max: number) => z.string().max(max).nullable().optional();

const social = z
  .object(Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, httpsUrl.nullable().optional()])) as Record<(typeof SOCIAL_NETWORKS)[number], z.ZodOptional<z.ZodNullable<typeof httpsUrl>>>)
  .describe('links to the brand\'s profiles (https); replaced whole when sent');

/** The look and details of a brand: what save takes and a send's `overrideProps.brand` may amend. */
export const brandFields = {
  logo_url: httpsUrl.nullable().optional(),
  website: httpsUrl.nullable().optional(),
  address: text(1000),
  primary_color: colour.nullable().optional(),
  accent_color: colour.nullable().optional(),
  background_color: colour.nullable().optional(),
  text_color: colour.nullable().optional(),
  font: z.enum(BRAND_FONTS).optional().describe('system (system-ui), humanist, serif or mono'),
  footer_text: text(1000),
  social: social.optional(),
};

export const BrandInput = z.object({
  id: resource('brand', z.number().int().min(0)).optional().describe('0 or absent creates'),
  name: z.string().trim().min(1).max(200).optional().describe('required on create'),
  is_default: flag.optional().describe('true makes this the account\'s default brand (the former default stops being it)'),
  ...brandFields,
});

export const SaveBrandBody = z.object({ brand: BrandInput });

/** `overrideProps.brand` of a send: any of the brand's keys, checked as save checks them. */
export const BrandOverride = z.object({ name: z.string().trim().min(1).max(200).optional(), ...brandFields });

const nullableString = z.string().nullable();

export const Brand = named('Brand', z.object({
  id: z.number().int(),
  name: z.string(),
  is_default: z.boolean(),
  logo_url: nullableString,
  website: nullableString,
  address: nullableString,
  primary_color: nullableString,
  accent_color: nullableString,
  background_color: nullableString,
  text_color: nullableString,
  font: z.enum(BRAND_FONTS),
  footer_text: nullableString,
  social: z.object(Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, nullableString])) as Record<(typeof SOCIAL_NETWORKS)[number], typeof nullableString>),
  createdat: z.string(),
  updatedat: z.string(),
}));

export const BrandList = z.array(Brand);
export { PageMeta };

export const BrandIdParams = z.object({ id: resource('brand', numericId()) });

export const ListBrandsQuery = pageQuery().extend({
  sortBy: z.enum(['createdat', 'name', 'id']).default('createdat'),
  sortOrder,
});

export const DeleteBrandBody = z.object({
  id: resource('brand', z.number().int().positive()),
  otp_confirmation_token: z.string().optional().describe('needed when eCards use the brand (purpose brand_delete)'),
});

export const Deleted = z.object({ deleted: z.array(z.number().int()) });
