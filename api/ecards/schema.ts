// Contracts of the eCard endpoints.
import { z } from 'zod';
import { hasWhitespaceOrControl } from '../../lib/urls.ts';
import { DATE_WINDOWS } from '../../services/ecards.ts';
import { numericId, flag, PageMeta, pageQuery, queryBoolean, resource, withAliases } from '../schema-helpers.ts';

const id = z.number().int().positive();
// Each element of an id list: decimal digits or a vanity id (base62, as the service makes them), so `0x1` is refused, not read as 1.
const LISTED_ID = /^(?:\d{1,15}|[0-9A-Za-z]{12,32})$/;
const isIdList = (v: string) => v.split(',').every((item) => item === '' || LISTED_ID.test(item));
// Whitespace and control characters are refused: a URL is written into the card page's styles and markup.
// (Checked before the URL parser, which drops tabs and newlines.)
export const httpUrl = z
  .string()
  .max(2048)
  .refine((url) => !hasWhitespaceOrControl(url), 'a URL may not contain whitespace or control characters')
  .pipe(z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }))
  .meta({ format: 'uri' });
const optionalText = (max: number) => z.string().max(max).nullable().optional();

/** The settable eCard fields (spec names); each is optional, as updates are partial. */
export const ecardFieldSchemas = {
  name: z.string().trim().min(1).max(200).optional().describe('required on create'),
  emailSubject: optionalText(500).describe('Handlebars template with merge tags'),
  header: optionalText(500).describe('Handlebars template with merge tags'),
  details: z.string().max(1_000_000).nullable().optional().describe('HTML body; sanitized; Handlebars template'),
  ecardLink: httpUrl.nullable().optional(),
  url_redirect_after_send: httpUrl.nullable().optional(),
  disabled: flag.optional(),
  canSchedule: flag.optional(),
  ecardbrandid: resource('brand', z.number().int()).nullable().optional().describe('the eCard\'s brand (one of the account\'s); null: the default brand'),
  ecard_mode: optionalText(50),
  envelope_bg_image_url: httpUrl.nullable().optional(),
  envelope_audio_url: httpUrl.nullable().optional(),
  envelope_video_url: httpUrl.nullable().optional(),
  envelope_color_settings: optionalText(2000),
  envelope_auto_open: flag.optional(),
  envelope_confetti: flag.optional(),
  self_hosted_url: httpUrl.nullable().optional().describe('public URL of the artwork (or upload it as ecardimg)'),
};

export const EcardInput = withAliases(
  z.object({
    id: resource('ecard', z.number().int().min(0)).optional().describe('absent or 0 creates'),
    widgetid: resource('widget', id).optional().describe('owning widget; required on create'),
    ...ecardFieldSchemas,
  }),
  { widgetid: ['widgetId', 'widgetID'] },
);

export const SaveEcardBody = z.object({
  myEcard: EcardInput,
  ecardimg: z.string().min(1).optional().describe('cover image as base64, raw or a data: URI (png, jpeg, gif, webp; at most 5 MB)'),
});

export const Ecard = z.object({
  id: z.number().int(),
  ecardid: z.number().int(),
  vanity_id: z.string(),
  widgetid: z.number().int(),
  name: z.string(),
  emailSubject: z.string().nullable(),
  header: z.string().nullable(),
  details: z.string().nullable(),
  ecardLink: z.string().nullable(),
  url_redirect_after_send: z.string().nullable(),
  disabled: z.boolean(),
  canSchedule: z.boolean(),
  ecardbrandid: z.number().int().nullable(),
  ecard_mode: z.string().nullable(),
  envelope_bg_image_url: z.string().nullable(),
  envelope_audio_url: z.string().nullable(),
  envelope_video_url: z.string().nullable(),
  envelope_color_settings: z.string().nullable(),
  envelope_auto_open: z.boolean(),
  envelope_confetti: z.boolean(),
  self_hosted_url: z.string().nullable(),
  displayorder: z.number().int(),
  price: z.number().nullable(),
  createdat: z.string(),
  updatedat: z.string(),
});

export const EcardIdParams = z.object({ id: resource('ecard', numericId()) });

export const DeleteEcardsBody = withAliases(
  z.object({ ecardids: resource('ecard', z.array(id).min(1)), otp_confirmation_token: z.string().optional() }),
  { ecardids: ['ecardIds', 'ecardIDs'] },
);

export const CopyEcardBody = withAliases(
  z.object({ ecardid: resource('ecard', id), widgetid: resource('widget', id).optional().describe('target widget (default: the source widget)') }),
  { ecardid: ['ecardId', 'ecardID'], widgetid: ['widgetId', 'widgetID'] },
);

export const BULK_FIELDS = [
  'name', 'emailSubject', 'header', 'details', 'ecardLink', 'url_redirect_after_send', 'disabled', 'canSchedule', 'ecardbrandid',
  'ecard_mode', 'envelope_bg_image_url', 'envelope_color_settings', 'envelope_auto_open', 'envelope_confetti', 'envelope_audio_url',
  'envelope_video_url',
] as const;

export const BulkUpdateBody = withAliases(
  z.object({
    widgetid: resource('widget', id).optional().describe('every eCard of this widget'),
    ecardids: resource('ecard', z.array(id).min(1)).optional().describe('or these eCards'),
    fieldName: z.enum(BULK_FIELDS),
    fieldValue: z.unknown(),
  }),
  { widgetid: ['widgetId', 'widgetID'], ecardids: ['ecardIds', 'ecardIDs'] },
);

export const Updated = z.object({ updated: z.number().int() });

export const SaveOrderBody = z.object({ neworder: resource('ecard', z.array(id).min(1)) });
export const Order = z.object({ widgetid: z.number().int(), order: z.array(z.number().int()) });

export const UploadMediaBody = z.object({ imageBase: z.string().min(1).describe('base64, raw or a data: URI') });
export const UploadedMedia = z.object({ url: z.string() });

export const PreviewBody = z.object({
  id: resource('ecard', id),
  mergeTags: z.record(z.string(), z.string()).optional(),
  overrideProps: z
    .object({
      emailSubject: z.string().optional(),
      header: z.string().optional(),
      details: z.string().optional(),
      envelope_bg_image_url: httpUrl.optional(),
      envelope_audio_url: httpUrl.optional(),
      envelope_video_url: httpUrl.optional(),
      envelope_color_settings: z.string().optional(),
      envelope_auto_open: flag.optional(),
      envelope_confetti: flag.optional(),
    })
    .optional(),
  trialMode: flag.optional(),
});
export const Preview = z.object({ subject: z.string(), header: z.string(), html: z.string() });

export const SearchEcardsQuery = withAliases(
  pageQuery().extend({
    keyword: z.string().optional().describe('in name or details'),
    widgetID: resource('widget', numericId(0)).default(0).describe('0 = all widgets'),
    ecardIDs: resource('ecard', z.string().refine(isIdList, 'expected comma-separated decimal ids or vanity ids'))
      .optional()
      .transform((v) => (v ? v.split(',').filter(Boolean) : []))
      .describe('comma-separated numeric or vanity ids'),
    filterByDate: z.enum(DATE_WINDOWS as [string, ...string[]]).default('any-time'),
    sortBy: z.enum(['createdat', 'name', 'id', 'displayorder']).default('createdat'),
    sortOrder: z.enum(['asc', 'desc']).optional().describe('default desc; displayorder ascending'),
    includeCampaign: queryBoolean.default(false),
  }),
  { widgetID: ['widgetId', 'widgetid'], ecardIDs: ['ecardids', 'ecardIds'] },
);

export const EcardList = z.array(Ecard);
export { PageMeta };
