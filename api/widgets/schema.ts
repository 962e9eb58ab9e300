// Contracts of the widget endpoints.
import { z } from 'zod';
import { httpsUrl } from '../brands/schema.ts';
import { numericId, flag, PageMeta, pageQuery, resource, sortOrder, withAliases } from '../schema-helpers.ts';

const id = numericId();

/** A price of at most two decimals, ≥ 0. */
const price = z.number().min(0).refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-9, 'a price has at most two decimals');

/** A merge tag's name as a template writes it (`{{first_name}}`). */
const TAG_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MERGE_TAG_DEFAULTS_MAX = 50;

const mergeTagDefaults = z
  .record(z.string().regex(TAG_NAME, 'a merge tag name is 1–64 letters, digits, _ or -').refine((tag) => tag !== '__proto__', 'not a merge tag name'), z.string().max(500))
  .refine((map) => Object.keys(map).length <= MERGE_TAG_DEFAULTS_MAX, `at most ${MERGE_TAG_DEFAULTS_MAX} merge tags`)
  .describe('merge tag → the text it takes when a send leaves it empty (built-in tags too); replaced whole');

const url = httpsUrl.nullable().optional();
/** The widget's own details: they fill what the eCard's brand leaves empty (https URLs, as a brand's). */
const ownDetails = {
  logo: url.describe('logo URL (https); fills the brand\'s empty logo_url'),
  website: url,
  address: z.string().max(1000).nullable().optional(),
  stwitter: url,
  sfacebook: url,
  sinstagram: url,
  slinkedin: url,
  syoutube: url,
};

export const WidgetInput = z.object({
  id: resource('widget', z.number().int().min(0)).optional().describe('0 or absent creates'),
  name: z.string().trim().min(1).max(200).optional().describe('required on create'),
  wconfig: z.record(z.string(), z.unknown()).optional().describe('display and behaviour configuration; required on create; replaced whole'),
  dir_sender_must_be_in_directory: flag.optional().describe('turning it off on an existing widget needs otp_confirmation_token'),
  ...ownDetails,
  merge_tag_defaults: mergeTagDefaults.optional(),
  public_share_enabled: flag.optional().describe('share links from the embedded widget (default false)'),
});

export const SaveWidgetBody = z.object({
  widget: WidgetInput,
  ecardPrices: resource('ecard', z.record(z.string().regex(/^\d+$/, 'keys are eCard ids'), price))
    .optional()
    .describe('eCard id → price; replaces the whole map; every key must be an eCard of this widget'),
  otp_confirmation_token: z.string().optional(),
});

export const Widget = z.object({
  id: z.number().int(),
  vanity_id: z.string(),
  ownerid: z.number().int(),
  name: z.string(),
  wconfig: z.record(z.string(), z.unknown()),
  dir_sender_must_be_in_directory: z.boolean(),
  is_campaign: z.boolean(),
  logo: z.string().nullable(),
  website: z.string().nullable(),
  address: z.string().nullable(),
  stwitter: z.string().nullable(),
  sfacebook: z.string().nullable(),
  sinstagram: z.string().nullable(),
  slinkedin: z.string().nullable(),
  syoutube: z.string().nullable(),
  merge_tag_defaults: z.record(z.string(), z.string()),
  public_share_enabled: z.boolean(),
  ecardPrices: z.record(z.string(), z.number()),
  createdat: z.string(),
  updatedat: z.string(),
});

export const WidgetIdParams = z.object({ id: resource('widget', id) });

export const SearchWidgetsQuery = pageQuery().extend({
  keyword: z.string().optional(),
  sortBy: z.enum(['createdat', 'name', 'id']).default('createdat'),
  sortOrder,
});

export const WidgetList = z.array(Widget);
export { PageMeta };

export const DeleteWidgetsBody = withAliases(
  z.object({
    widgetids: resource('widget', z.array(z.number().int().positive()).min(1)),
    otp_confirmation_token: z.string().optional(),
  }),
  { widgetids: ['widgetIds', 'widgetIDs'] },
);

export const Deleted = z.object({ deleted: z.array(z.number().int()) });

export const CopyWidgetBody = withAliases(
  z.object({
    widgetid: resource('widget', z.number().int().positive()),
    limit: z.number().int().positive().optional().describe('copy at most this many eCards, in display order (default: all)'),
  }),
  { widgetid: ['widgetId', 'widgetID'] },
);
