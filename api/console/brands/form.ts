// The brand editor's form (urlencoded, or multipart when it carries a logo file) read as the key API's brand input:
// the same schema as `POST /brand/save`, blank fields meaning "none", and an uploaded logo stored as the account's
// media (the store `uploadMediaImage` uses), its URL becoming `logo_url`.
import type { Context } from 'koa';
import type { z } from 'zod';
import { malformedForm } from '../../../lib/errors.ts';
import { SOCIAL_NETWORKS } from '../../../models/Brand.ts';
import type { BrandInput as ServiceBrandInput } from '../../../services/brands/brands.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { MAX_IMAGE_BYTES, ownMediaFile, storeImage } from '../../../services/media.ts';
import { BrandInput } from '../../brands/schema.ts';
import { readBodyBytes, readFormBody } from '../../http/body.ts';
import { parseInput } from '../../http/validation.ts';

/** The editor's field names (the previews read the same ones for the unsaved brand's email). */
export const BRAND_FORM_FIELDS = [
  'name', 'is_default', 'logo_url', 'website', 'address', 'primary_color', 'accent_color', 'background_color', 'text_color', 'font', 'footer_text',
  ...SOCIAL_NETWORKS,
] as const;

/** A logo of at most the media store's 5 MiB, with room for the multipart envelope and the other fields. */
const UPLOAD_LIMIT = MAX_IMAGE_BYTES + 256 * 1024;

/** What the editor posted: its text fields and, from a multipart form, the logo file's bytes (null without one). */
export interface BrandForm {
  fields: Record<string, string>;
  logo: Uint8Array | null;
}

/** The body of an editor POST: multipart (a logo file) as FormData, else the urlencoded fields; the CSRF check reads either. */
export async function readBrandBody(ctx: Context, limit: number): Promise<unknown> {
  if (!ctx.request.is('multipart/form-data')) return readFormBody(ctx, limit);
  const body = await readBodyBytes(ctx, UPLOAD_LIMIT);
  try {
    return await new Request('http://upload.invalid/', { method: 'POST', headers: { 'content-type': ctx.get('content-type') }, body }).formData();
  } catch {
    throw malformedForm('The form is not a valid multipart form');
  }
}

export async function brandFormOf(raw: unknown): Promise<BrandForm> {
  if (!(raw instanceof FormData)) return { fields: (raw ?? {}) as Record<string, string>, logo: null };
  const fields: Record<string, string> = {};
  let logo: Uint8Array | null = null;
  for (const [name, value] of raw) {
    if (typeof value === 'string') fields[name] = value;
    // A file input left empty still sends a part: no name, no bytes.
    else if (name === 'logo_file' && value.size > 0) logo = new Uint8Array(await value.arrayBuffer());
  }
  return { fields, logo };
}

const blankIsNull = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

/**
 * The form as the key API's brand input. Blank fields clear (null); `is_default` is a checkbox that can only move
 * the default here (unticked leaves it as it is: the default moves by making another brand the default).
 *
 * Our own media URLs are taken for `logo_url` as they are, even where the service runs on plain http (a local
 * install, the tests): an owner who uploads a logo expects it to be kept. Every other URL must be https, as the
 * key API's brand schema says; in production PUBLIC_BASE_URL is https, so the exception changes nothing there.
 */
export function brandInputOf(fields: Record<string, string>, publicBaseUrl: string): Omit<ServiceBrandInput, 'id'> {
  const logo = blankIsNull(fields.logo_url);
  const ownLogo = logo !== null && ownMediaFile(publicBaseUrl, logo) !== null;
  const input = {
    name: fields.name ?? '',
    is_default: fields.is_default === 'on' ? true : undefined,
    logo_url: ownLogo ? undefined : logo,
    website: blankIsNull(fields.website),
    address: blankIsNull(fields.address),
    primary_color: blankIsNull(fields.primary_color),
    accent_color: blankIsNull(fields.accent_color),
    background_color: blankIsNull(fields.background_color),
    text_color: blankIsNull(fields.text_color),
    font: fields.font || undefined,
    footer_text: blankIsNull(fields.footer_text),
    social: Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, blankIsNull(fields[n])])),
  };
  const parsed: z.output<typeof BrandInput> = parseInput(BrandInput.omit({ id: true }), input, 'body');
  return ownLogo ? { ...parsed, logo_url: logo } : parsed;
}

/** Stores an uploaded logo in the account's media (type sniffed, quota counted) and answers its URL. */
export async function storeLogo(services: ServiceContext, accountId: number, bytes: Uint8Array): Promise<string> {
  return storeImage(services, accountId, bytes, 'logo_file');
}
