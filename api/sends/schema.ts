// Contracts of the send endpoints: the widget's eCards for a sender, send-ecard (flat bodies), cancel-send, and
// reading sends (the list with its filters, one send with its recipients).
import { z } from 'zod';
import { localeCode } from '../../services/i18n/locale-code.ts';
import { BrandOverride } from '../brands/schema.ts';
import { GiftCard } from '../campaigns/schema.ts';
import { ecardFormFields, httpUrl } from '../ecards/schema.ts';
import { RECIPIENT_STATUSES } from '../../models/SendRecipient.ts';
import { ENVELOPE_THEMES } from '../../services/ecards/records.ts';
import { SEND_ORIGINS, SEND_STATUSES } from '../../services/sends/log/log.ts';
import { PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG } from '../../services/sends/accept/personal-message.ts';
import { flag, numericId, PageMeta, pageQuery, resource, withAliases, named } from '../schema-helpers.ts';

export const GetEcardsQuery = withAliases(z.object({ widgetId: resource('widget', z.string().trim().min(1)).describe('the widget\'s vanity id') }), {
  widgetId: ['widgetid', 'widgetID'],
});

export const SendableEcard = z.object({
  ecardid: z.number().int(),
  vanity_id: z.string(),
  name: z.string(),
  emailSubject: z.string().nullable(),
  header: z.string().nullable(),
  details: z.string().nullable().describe('the eCard body (sanitized HTML)'),
  image_url: z.string().nullable().describe('the artwork (self_hosted_url)'),
  thumb_image: z.string().nullable().describe('the 480 px WebP thumbnail of an uploaded artwork, else the artwork\'s URL'),
  envelope_bg_image_url: z.string().nullable(),
  canSchedule: z.boolean(),
  ...ecardFormFields,
});
export const SendableEcardList = z.array(SendableEcard);

const oneOrMany = (max: number) => z.union([z.string().max(max), z.array(z.string().max(max))]);

export const SendBody = withAliases(
  z.object({
    // A number, or its digits as a string; absent is a missing field (422), not a bad number.
    ecardId: resource('ecard', z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number().int().positive())),
    senderEmail: z.string().trim().min(1).max(254).describe('must be a valid email (else reason einvalid)'),
    senderName: z.string().trim().min(1).max(200),
    recipientName: oneOrMany(200).describe('one name, or an array as long as recipientEmail'),
    recipientEmail: oneOrMany(254).optional().describe('one address or up to 50; required for email sends (reason tooshort), optional for share links'),
    sendAt: z.iso
      .datetime({ offset: true, error: 'expected an ISO 8601 date-time with Z or an offset' })
      .transform((s) => new Date(s))
      .optional()
      .describe('a time more than 60 s ahead schedules the send (at most a year ahead)'),
    type: z.string().optional().describe('`ecard_copy_link` selects share-link mode'),
    is_sharing: flag.optional().describe('true selects share-link mode'),
    widgetId: resource('widget', z.union([z.string(), z.number()])).optional().describe('the eCard\'s widget (vanity or numeric id)'),
    personalMessage: z.string().max(PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG).optional().describe('HTML, sanitized'),
    locale: localeCode().optional().describe('a language code (fr-CA) or name (hebrew); a name is stored as its code'),
    mergeTags: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
    // The envelope's URLs are checked as an eCard's are (they are written into the page's styles); other keys pass.
    overrideProps: z
      .looseObject({
        envelope_bg_image_url: httpUrl.optional(),
        envelope_audio_url: httpUrl.optional(),
        envelope_video_url: httpUrl.optional(),
        envelope_theme: z.enum(ENVELOPE_THEMES).optional(),
        envelope_audio_repeat: flag.optional(),
        brand: BrandOverride.optional().describe('this send\'s amendments of the brand (its keys, checked as /brand/save checks them)'),
      })
      .optional(),
    opennotification: flag.optional().describe('true emails the sender once per recipient when that recipient first opens the card (a read receipt); default false'),
    giftCard: GiftCard.optional().describe('a gift card for each recipient (email sends only; the key also needs gift_cards: manage)'),
  }),
  { ecardId: ['ecardid', 'ecardID'], widgetId: ['widgetid', 'widgetID'] },
);

export const SendAnswer = z.object({
  sendId: z.string(),
  emailsSent: z.number().int().optional(),
  status: z.enum(['scheduled', 'pending', 'canceled']).optional(),
  scheduled_to_be_sent_at: z.string().optional(),
  shareUrl: z.string().optional(),
  statVanityId: z.string().optional(),
});

export const CancelBody = z.object({ sendId: resource('send', z.string().uuid()) });
export const CancelAnswer = z.object({ sendId: z.string(), status: z.literal('canceled') });

/** 1–255 characters from `!` to `~` (printable ASCII, no spaces): the idempotency table's column holds 255. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

const INVALID_IDEMPOTENCY_KEY = 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces (0x21-0x7E)';

/** send-ecard's request headers: an Idempotency-Key, or none; any other text is 400 invalid_idempotency_key. */
export const SendHeaders = z.object({
  'Idempotency-Key': z
    .string({ error: INVALID_IDEMPOTENCY_KEY })
    .regex(IDEMPOTENCY_KEY, { error: INVALID_IDEMPOTENCY_KEY })
    .optional()
    .describe('the same key within 24 h sends once'),
});

// Reading sends (`sends: view`).

const DAY_MS = 86_400_000;
const INSTANT_OR_DAY = 'expected an ISO 8601 date-time with Z or an offset, or a date YYYY-MM-DD (a UTC day)';

/**
 * An instant or a UTC day, as the log's bound on the send's creation time: `from` is inclusive; `to` is the
 * exclusive bound the log takes, so an instant includes itself (+1 ms, the column's precision) and a day its whole self.
 */
const instantOrDay = (bound: 'from' | 'to') =>
  z.union([z.iso.datetime({ offset: true }), z.iso.date()], { error: INSTANT_OR_DAY }).transform((s) => {
    const day = s.length === 10;
    const at = Date.parse(day ? `${s}T00:00:00Z` : s);
    return new Date(bound === 'from' ? at : at + (day ? DAY_MS : 1));
  });

const id = numericId();

export const ListSendsQuery = withAliases(
  pageQuery().extend({
    status: z.enum(SEND_STATUSES).optional(),
    origin: z.enum(SEND_ORIGINS).optional().describe('single (send-ecard), campaign, automation or widget'),
    ecardId: resource('ecard', id).optional(),
    widgetId: resource('widget', id).optional().describe('the widget\'s numeric id'),
    campaign_id: resource('campaign', id).optional().describe('that campaign\'s sends'),
    automation_id: resource('automation', id).optional().describe('that automation\'s sends'),
    recipientEmail: z.email().max(254).optional().describe('sends with a recipient of exactly this address (case-insensitive)'),
    dateFrom: instantOrDay('from').optional().describe('created at or after this instant, or from the start of this UTC day'),
    dateTo: instantOrDay('to').optional().describe('created at or before this instant, or by the end of this UTC day'),
  }),
  {
    ecardId: ['ecardid', 'ecardID'],
    widgetId: ['widgetid', 'widgetID'],
    campaign_id: ['campaignId', 'campaignID', 'campaignid'],
    automation_id: ['automationId', 'automationID', 'automationid'],
  },
);

export const SendIdParams = z.object({ sendId: resource('send', z.uuid({ error: 'expected a send id (a UUID)' })).describe('the sendId send-ecard answered') });

const instant = z.string().nullable();

export const LoggedRecipient = z.object({
  name: z.string().nullable().describe('null for a directory member when the key lacks directory: view'),
  email: z.string().nullable().describe('null for a directory member when the key lacks directory: view, for a share link without one, or once erased'),
  status: z.enum(RECIPIENT_STATUSES),
  sent_at: instant.describe('when the SMTP server took its email'),
  opened_at: instant.describe('when the recipient first opened the card (the open action)'),
  bounced_at: instant.describe('when a bounce or complaint came back (the status stays sent)'),
  failure: z.string().nullable().describe('why its email failed, as stored; `outcome_unknown (…)` when the server\'s answer was lost'),
});

export const LoggedSend = named('LoggedSend', z.object({
  sendId: z.string(),
  status: z.enum(SEND_STATUSES),
  origin: z.enum(SEND_ORIGINS),
  ecardid: z.number().int(),
  widgetid: z.number().int(),
  campaign_id: z.number().int().nullable(),
  automation_id: z.number().int().nullable(),
  createdat: z.string(),
  scheduled_to_be_sent_at: z.string().describe('when it was (or is) to go out: the acceptance time unless scheduled'),
  sent_at: instant.describe('when its last email was taken by the SMTP server; null until one was (and for share links)'),
  recipients: z.array(LoggedRecipient).describe('in the order given'),
}));
export const LoggedSendList = z.array(LoggedSend);

export { PageMeta };
