// Contracts of the eCard endpoints.
import { z } from 'zod';
import { hasWhitespaceOrControl } from '../../lib/urls.ts';
import { DATE_WINDOWS, ECARD_MODES, ENVELOPE_THEMES } from '../../services/ecards/records.ts';
import { ENVELOPE_COLOR_KEYS, isEnvelopeColor } from '../../services/ecards/envelope-colors.ts';
import { numericId, flag, PageMeta, pageQuery, queryBoolean, resource, withAliases, named } from '../schema-helpers.ts';

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
/** An instant as ISO 8601 with Z or an offset; stored and answered in UTC. */
const instant = z.iso
  .datetime({ offset: true, error: 'expected an ISO 8601 date-time with Z or an offset' })
  .transform((text) => new Date(text))
  .nullable()
  .optional();

const COLOR_SETTINGS_MAX = 2000;
const envelopeColor = z
  .string()
  .max(100)
  .refine(isEnvelopeColor, 'expected a colour: hex (#rgb, #rgba, #rrggbb, #rrggbbaa), a CSS colour name, or rgb()/rgba()')
  .nullable()
  .optional();
/** The colour settings as an object: the known keys only (a misspelt key is refused, not ignored). */
const EnvelopeColors = z.strictObject(Object.fromEntries(ENVELOPE_COLOR_KEYS.map((k) => [k, envelopeColor])) as Record<(typeof ENVELOPE_COLOR_KEYS)[number], typeof envelopeColor>);

// A JSON text is checked as the object is, and stored as written ("" is no settings); an object is stored as its
// JSON text. (The checks follow the union: a transform inside one of its options would hide the option's issues.)
function colorSettingsText(value: string | z.infer<typeof EnvelopeColors>, ctx: z.RefinementCtx): string | null {
  if (typeof value !== 'string') {
    const text = JSON.stringify(value);
    if (text.length > COLOR_SETTINGS_MAX) ctx.addIssue({ code: 'custom', message: `its JSON text is longer than ${COLOR_SETTINGS_MAX} characters`, input: value });
    return text;
  }
  if (value.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected JSON text of an object of colours (or the object itself)', input: value });
    return z.NEVER;
  }
  const checked = EnvelopeColors.safeParse(parsed);
  for (const issue of checked.error?.issues ?? []) {
    ctx.addIssue({ code: 'custom', message: issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message, input: value });
  }
  return value;
}
export const envelopeColorSettings = z
  .union([z.string().max(COLOR_SETTINGS_MAX), EnvelopeColors], { error: 'expected a JSON string or an object of colours' })
  .transform(colorSettingsText)
  .describe(`colours of the envelope and the card: a JSON string or an object with optional keys ${ENVELOPE_COLOR_KEYS.join(', ')} (hex, a CSS colour name, rgb()/rgba()); stored and answered as a JSON string`);

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
  ecard_mode: z.enum(ECARD_MODES).nullable().optional().describe('popup_card (the envelope first; the default, also for null) or classic (the card at once)'),
  envelope_bg_image_url: httpUrl.nullable().optional(),
  envelope_audio_url: httpUrl.nullable().optional(),
  envelope_video_url: httpUrl.nullable().optional(),
  envelope_color_settings: envelopeColorSettings.nullable().optional(),
  envelope_auto_open: flag.optional(),
  envelope_confetti: flag.optional(),
  envelope_theme: z.enum(ENVELOPE_THEMES).optional().describe('the envelope\'s look (default classic)'),
  envelope_audio_repeat: flag.optional().describe('loop envelope_audio_url (default false)'),
  ecardLinkAltText: optionalText(100).describe('the label of the ecardLink button'),
  thumbnail_alt_label: optionalText(200).describe('alt text of the cover image (default: the header)'),
  og_title: optionalText(100).describe('Open Graph title of share-link pages'),
  og_description: optionalText(300).describe('Open Graph description of share-link pages'),
  self_hosted_url: httpUrl.nullable().optional().describe('public URL of the artwork (or upload it as ecardimg)'),
  // The widget form's fields and the gallery's publish window.
  personalMessageBox: flag.optional().describe('the widget form offers a personal message (default true)'),
  predefinedScheduleOn: flag.optional().describe('the widget form offers predefinedSchedule as the send time (default false)'),
  predefinedScheduleForced: flag.optional().describe('the widget form must send at predefinedSchedule (default false)'),
  predefinedSchedule: instant.describe('the predefined send time (ISO 8601; answered in UTC), or null'),
  publishOn: instant.describe('the gallery and get-ecards list the eCard from this instant (null: at once)'),
  expireOn: instant.describe('…and until this instant (null: no end); must be later than publishOn'),
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

/** The widget form's fields of an eCard as every read answers them (findOne, search, get-ecards). */
export const ecardFormFields = {
  personalMessageBox: z.boolean(),
  predefinedScheduleOn: z.boolean(),
  predefinedScheduleForced: z.boolean(),
  predefinedSchedule: z.string().nullable(),
  publishOn: z.string().nullable(),
  expireOn: z.string().nullable(),
};

export const Ecard = named('Ecard', z.object({
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
  ecard_mode: z.enum(ECARD_MODES).describe('popup_card (the default: also what a stored null reads as) or classic'),
  envelope_bg_image_url: z.string().nullable(),
  envelope_audio_url: z.string().nullable(),
  envelope_video_url: z.string().nullable(),
  envelope_color_settings: z.string().nullable(),
  envelope_auto_open: z.boolean(),
  envelope_confetti: z.boolean(),
  envelope_theme: z.enum(ENVELOPE_THEMES),
  envelope_audio_repeat: z.boolean(),
  ecardLinkAltText: z.string().nullable(),
  thumbnail_alt_label: z.string().nullable(),
  og_title: z.string().nullable(),
  og_description: z.string().nullable(),
  self_hosted_url: z.string().nullable(),
  ...ecardFormFields,
  thumb_image: z.string().nullable().describe('read-only: the 480 px WebP thumbnail of an uploaded artwork, else self_hosted_url as it is'),
  displayorder: z.number().int(),
  price: z.number().nullable(),
  createdat: z.string(),
  updatedat: z.string(),
}));

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
  'envelope_video_url', 'envelope_theme', 'envelope_audio_repeat', 'ecardLinkAltText', 'thumbnail_alt_label', 'og_title', 'og_description',
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

/** "Send me a test": the eCard, and where to (default: the account's owner). */
export const SendTestBody = z.object({
  id: resource('ecard', id),
  email: z.string().trim().toLowerCase().pipe(z.email('expected an email address').max(254)).optional().describe('the test\'s recipient (default: the account\'s owner)'),
});

export const SentTest = z.object({
  queued: z.boolean().describe('false: the address is suppressed by the account, nothing is sent'),
  email: z.string().describe('where the test goes'),
});

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
      envelope_theme: z.enum(ENVELOPE_THEMES).optional(),
      envelope_audio_repeat: flag.optional(),
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
