// Contracts of the widget endpoints.
import { z } from 'zod';
import { parseColor } from '../../lib/colors.ts';
import { WIDGET_CSS_MAX_BYTES } from '../../services/widgets/public/css.ts';
import { normalizeDomainList } from '../../services/widgets/public/domains.ts';
import { httpsUrl } from '../brands/schema.ts';
import { numericId, flag, PageMeta, pageQuery, resource, sortOrder, withAliases, named } from '../schema-helpers.ts';

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

const colour = z
  .string()
  .max(64)
  .refine((value) => parseColor(value) !== null, 'expected a CSS colour (hex, a colour name, rgb()/rgba())')
  .nullable()
  .optional();
const fontSize = z.number().int().min(10).max(40).nullable().optional();
const domainList = z
  .string()
  .max(10_000)
  .transform((text, ctx) => {
    const list = normalizeDomainList(text);
    if (list.ok) return list.value;
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(list.bad.slice(0, 100))} is not a domain`, input: text });
    return z.NEVER;
  })
  .nullable()
  .optional();

/** The widget page's look (the anchor's names); null clears a value (the page's default). */
const style = {
  stylebg: colour.describe('page background colour'),
  stylebghead: colour.describe('header background colour'),
  stylebgbody: colour.describe('body background colour'),
  styletext: colour.describe('text colour'),
  styleheadtext: colour.describe('header text colour'),
  stylelink: colour.describe('link colour'),
  style_fontsize: fontSize.describe('body font size in px (10–40)'),
  style_fontsize_header: fontSize.describe('header font size in px (10–40)'),
  widgetcss: z
    .string()
    .max(WIDGET_CSS_MAX_BYTES)
    .nullable()
    .optional()
    .describe(`CSS added to the widget page (at most ${WIDGET_CSS_MAX_BYTES / 1024} KB); stored sanitized: @import rules, expression(), behavior/-moz-binding and declarations loading a non-https url() are removed; unreadable CSS is refused`),
};

/** Who may send from the public widget. */
const senderRules = {
  email_verification_required: flag.optional().describe('senders prove their address with a mailed code before sending (default false)'),
  sender_email_domains_whitelist: domainList.describe('sender domains allowed, comma- or newline-separated (stored lower-case, one per line); empty or null: any'),
  recipient_email_domains_whitelist: domainList.describe('recipient domains allowed, as sender_email_domains_whitelist'),
  dir_session_timeout_minutes: z.number().int().min(5).max(1440).optional().describe('how long a proven sender stays proven, in minutes (5–1,440; default 30)'),
};

export const WidgetInput = z.object({
  id: resource('widget', z.number().int().min(0)).optional().describe('0 or absent creates'),
  name: z.string().trim().min(1).max(200).optional().describe('required on create'),
  wconfig: z.record(z.string(), z.unknown()).optional().describe('display and behaviour configuration; required on create; replaced whole'),
  dir_sender_must_be_in_directory: flag.optional().describe('turning it off on an existing widget needs otp_confirmation_token'),
  ...ownDetails,
  merge_tag_defaults: mergeTagDefaults.optional(),
  public_share_enabled: flag.optional().describe('the widget is public: its gallery, form and loader answer strangers (default false)'),
  ...style,
  ...senderRules,
});

export const SaveWidgetBody = z.object({
  widget: WidgetInput,
  ecardPrices: resource('ecard', z.record(z.string().regex(/^\d+$/, 'keys are eCard ids'), price))
    .optional()
    .describe('eCard id → price; replaces the whole map; every key must be an eCard of this widget'),
  otp_confirmation_token: z.string().optional(),
});

export const Widget = named('Widget', z.object({
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
  stylebg: z.string().nullable(),
  stylebghead: z.string().nullable(),
  stylebgbody: z.string().nullable(),
  styletext: z.string().nullable(),
  styleheadtext: z.string().nullable(),
  stylelink: z.string().nullable(),
  style_fontsize: z.number().int().nullable(),
  style_fontsize_header: z.number().int().nullable(),
  widgetcss: z.string().nullable(),
  email_verification_required: z.boolean(),
  sender_email_domains_whitelist: z.string().nullable().describe('one domain per line'),
  recipient_email_domains_whitelist: z.string().nullable().describe('one domain per line'),
  dir_session_timeout_minutes: z.number().int(),
  ecardPrices: z.record(z.string(), z.number()),
  createdat: z.string(),
  updatedat: z.string(),
}));

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
