// Contracts of the campaign endpoints.
import { z } from 'zod';
import { localeCode } from '../../services/i18n/locale-code.ts';
import { CAMPAIGN_STATUSES } from '../../models/Campaign.ts';
import { CAMPAIGN_RECIPIENT_STATUSES } from '../../models/CampaignRecipient.ts';
import { PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG } from '../../services/sends/accept/personal-message.ts';
import { numericId, flag, PageMeta, pageQuery, resource, withAliases, named } from '../schema-helpers.ts';

const id = resource('campaign', numericId());
const campaignid = resource('campaign', z.number().int().positive());
const campaignAliases = { campaignid: ['campaignId', 'campaignID'] } as const;
const locale = localeCode();
const mergeValue = z.union([z.string().max(1000), z.number(), z.boolean()]).transform(String);

export const GiftCard = z.object({
  product_id: z.string().trim().min(1).max(200).describe('as listProducts gives it: manual:<brand>:<denomination> or <provider>:<sku>'),
  amount: z.number().positive().max(100_000),
});

export const CampaignInput = z.object({
  id: resource('campaign', z.number().int().min(0)).optional().describe('0 or absent creates a draft'),
  campaign_name: z.string().trim().min(1).max(200).optional().describe('required on create'),
  from_name: z.string().trim().max(200).nullable().optional().describe('the sender name'),
  from_email: z.union([z.email().max(254), z.literal('')]).nullable().optional().describe('Reply-To of the emails; needed to schedule or send'),
  personal_message: z.string().max(PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG).nullable().optional().describe('HTML, sanitized'),
  locale: locale.optional().describe('render language (default en)'),
  gift_card_enabled: flag.optional().describe('makes scheduling or sending from draft need gc_confirmation_token'),
  gift_card: GiftCard.nullable().optional(),
});

export const SaveCampaignBody = z.object({ campaign: CampaignInput });

export const CampaignCounts = z.object({
  recipients: z.number().int(),
  pending: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int(),
  skipped: z.number().int(),
  canceled: z.number().int(),
  opened: z.number().int(),
  bounced: z.number().int().describe('sent recipients a bounce or complaint came back for (BOUNCE_DOMAIN); they stay in `sent`'),
});

export const CampaignWave = z.object({
  timezone: z.string().describe('the IANA zone of this wave’s recipients'),
  send_at: z.string().describe('when the wave goes out (UTC): the wall-clock time there, or at once when it had passed at scheduling, moved past quiet hours'),
  recipients: z.number().int(),
});

export const Campaign = named('Campaign', z.object({
  id: z.number().int(),
  campaign_name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  from_name: z.string().nullable(),
  from_email: z.string().nullable(),
  personal_message: z.string().nullable(),
  locale: z.string(),
  gift_card_enabled: z.boolean(),
  gift_card: GiftCard.nullable(),
  widgetid: z.number().int().describe('the backing widget that holds the campaign’s eCard copies'),
  ecard_ids: z.array(z.number().int()).describe('the campaign’s eCards: copies in its widget'),
  source_ecard_ids: z.array(z.number().int().nullable()).describe('the eCard each copy was made from, in the same order'),
  scheduled_at: z.string().nullable().describe('the instant it goes out; in each recipient’s zone, its first wave'),
  scheduled_timezone: z.string().nullable().describe('an IANA zone, or "recipient": each recipient’s own zone'),
  scheduled_at_local: z.string().nullable().describe('scheduled_at in scheduled_timezone; for "recipient", the wall-clock time asked for (no offset)'),
  waves: z
    .array(CampaignWave)
    .describe('the waves it goes out in, earliest first: one per zone for "recipient", or where quiet hours hold recipients back; empty when it goes out at one instant'),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  createdat: z.string(),
  updatedat: z.string(),
  counts: CampaignCounts,
}));

export const CampaignList = z.array(Campaign);
export { PageMeta };

export const CampaignIdParams = z.object({ id });

export const ListCampaignsQuery = pageQuery().extend({
  keyword: z.string().optional(),
  status: z.enum(CAMPAIGN_STATUSES).optional().describe('absent: every status'),
});

export const SaveCampaignEcardsBody = withAliases(
  z.object({ campaignid, ecardIds: resource('ecard', z.array(z.number().int().positive()).min(1).max(20)) }),
  { ...campaignAliases, ecardIds: ['ecardids', 'ecardIDs'] },
);

export const CsvRecipient = z.object({
  email: z.email().max(254),
  name: z.string().max(200).optional(),
  first_name: z.string().max(200).optional(),
  last_name: z.string().max(200).optional(),
  merge_fields: z.record(z.string().max(100), mergeValue).optional(),
});

export const SaveRecipientsBody = withAliases(
  z.object({
    campaignid,
    directoryMemberIds: resource('member', z.array(z.number().int().positive())).default([]),
    csvRecipients: z.array(CsvRecipient).default([]).describe('rows as uploadCsv returns them; a bad email is 400 naming the row'),
    append: flag.default(false).describe('true adds to the recipients instead of replacing them'),
  }),
  campaignAliases,
);

export const UploadCsvBody = z.object({ csvContent: z.string().describe('CSV text with a header row; at most 10 MB and 50,000 rows') });

export const CsvUpload = z.object({
  headers: z.array(z.string()),
  rows: z.array(
    z.object({ email: z.string(), name: z.string(), first_name: z.string(), last_name: z.string(), merge_fields: z.record(z.string(), z.string()) }),
  ),
  errors: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  warnings: z.array(z.string()),
  total_rows: z.number().int(),
  valid_rows: z.number().int(),
});

export const RecipientsQuery = withAliases(
  pageQuery(500).extend({ campaignid: id, status: z.enum(CAMPAIGN_RECIPIENT_STATUSES).optional() }),
  campaignAliases,
);

export const Recipient = z.object({
  id: z.number().int(),
  source: z.enum(['directory', 'csv']),
  member_id: z.number().int().nullable(),
  email: z.string().nullable().describe('null for a directory recipient when the key lacks directory: view'),
  name: z.string().nullable().describe('null for a directory recipient when the key lacks directory: view'),
  merge_fields: z.record(z.string(), z.string()),
  status: z.enum(CAMPAIGN_RECIPIENT_STATUSES),
  reason: z.string().nullable(),
  ecard_id: z.number().int().nullable(),
  sent_at: z.string().nullable(),
  opened: z.boolean(),
});
export const RecipientList = z.array(Recipient);

export const ScheduleBody = withAliases(
  z.object({
    campaignid,
    scheduled_at: z
      .string()
      .describe('YYYY-MM-DDTHH:mm[:ss[.SSS]], wall-clock time in scheduled_timezone unless it ends in Z or ±HH:mm; with "recipient", no Z or offset'),
    scheduled_timezone: z
      .string()
      .max(64)
      .describe('IANA time zone, e.g. Asia/Kolkata; or "recipient": scheduled_at in each recipient’s zone (the member’s, else the CSV timezone column, else the account default), sent in waves'),
    gc_confirmation_token: z.string().optional(),
  }),
  campaignAliases,
);

/** `scheduled_timezone` meaning each recipient's own zone. */
export const RECIPIENT_ZONE = 'recipient';

export const SendBody = withAliases(z.object({ campaignid, gc_confirmation_token: z.string().optional() }), campaignAliases);

export const CampaignIdBody = withAliases(z.object({ campaignid }), campaignAliases);

export const UpdateLocaleBody = withAliases(z.object({ campaignid, locale }), campaignAliases);

export const DeleteCampaignBody = z.object({ id: resource('campaign', z.number().int().positive()) });
