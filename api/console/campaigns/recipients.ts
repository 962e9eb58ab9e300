// The wizard's recipients step: directory members (ticked one by one from a list filtered by department or a prefix,
// or whole departments) and/or a CSV (a file or pasted text). "Check" parses the CSV with uploadCsv's reader and
// shows the rows and each problem with its line, saving nothing; "Save" reads it again and saves the valid rows and
// the members with saveRecipients (bad rows skipped, as the check said). Without JavaScript the filter is a GET form
// of its own, and the ticked members travel in the step's form.
import { z } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import type { Campaign } from '../../../models/Campaign.ts';
import { findCampaign } from '../../../services/campaigns/campaigns.ts';
import { parseRecipientsCsv, type CsvResult, type CsvRowErrorReason } from '../../../services/campaigns/csv.ts';
import { activeMembersOfDepartments, pickableMembers } from '../../../services/campaigns/picker.ts';
import { saveRecipients } from '../../../services/campaigns/recipients.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { listDepartments } from '../../../services/directory/departments.ts';
import { CampaignIdParams } from '../../campaigns/schema.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { filledQuery } from '../../http/validation.ts';
import { campaignPath, refusal, stepsOf } from './common.ts';
import { readRecipientsBody, RECIPIENTS_BODY_LIMIT } from './form.ts';

const MEMBER_ROWS = 100;
const PREVIEW_ROWS = 50;
const LISTS = ['member_ids', 'department_ids'] as const;

const REASONS: Record<CsvRowErrorReason, string> = {
  missing_email: 'no email',
  invalid_email: 'not a valid email address',
  duplicate_email: 'the same email as an earlier row',
  column_count: 'a different number of columns than the header',
  field_too_long: 'a field longer than 1,000 characters',
};

const ids = z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(z.coerce.number().int().positive()).max(100_000));
const FilterQuery = z.object({ department: z.coerce.number().int().positive().optional(), q: z.string().trim().max(100).optional() });
const StepForm = z.object({
  step: z.enum(['check', 'save']).default('check'),
  member_ids: ids.default([]),
  department_ids: ids.default([]),
  csv_content: z.string().default(''),
  department: z.string().default(''),
  q: z.string().max(100).default(''),
});
type Typed = z.output<typeof StepForm>;

interface Review {
  members: number;
  csv: (CsvResult & { shown: CsvResult['rows']; more: number; problems: Array<{ line: number; reason: string }> }) | null;
  total: number;
}

async function recipientsPage(
  services: ServiceContext,
  campaign: Campaign,
  typed: Typed,
  extra: { review?: Review; error?: string; errors?: Record<string, string> } = {},
  status?: number,
): Promise<PageResult> {
  const { models } = services;
  const filter = FilterQuery.safeParse(filledQuery({ department: typed.department, q: typed.q }));
  const { department, q } = filter.success ? filter.data : {};
  const [departments, listed, saved] = await Promise.all([
    listDepartments(services, campaign.account_id),
    pickableMembers(services, campaign.account_id, { departmentId: department, prefix: q, limit: MEMBER_ROWS }),
    models.CampaignRecipient.count({ where: { campaign_id: campaign.id } }),
  ]);
  const picked = new Set(typed.member_ids);
  const shownIds = new Set(listed.members.map((m) => m.id));
  return page(
    {
      title: `Campaign “${campaign.campaign_name}”: recipients`,
      view: 'campaign-recipients',
      styles: ['campaigns.css'],
      steps: stepsOf(campaign.id, 'recipients'),
      campaign: { id: campaign.id, name: campaign.campaign_name, saved },
      action: campaignPath(campaign.id, 'recipients'),
      filter: { q: q ?? '', departments: departments.map((d) => ({ id: d.department.id, name: d.department.name, selected: d.department.id === department })) },
      departments: departments.map((d) => ({ id: d.department.id, name: d.department.name, members: d.members, checked: typed.department_ids.includes(d.department.id) })),
      members: listed.members.map((m) => ({ ...m, checked: picked.has(m.id) })),
      moreMembers: listed.more,
      // Ticked members the current filter does not list: kept in the form.
      carried: [...picked].filter((id) => !shownIds.has(id)),
      csvContent: typed.csv_content,
      review: extra.review,
      error: extra.error,
      errors: extra.errors ?? {},
    },
    status,
  );
}

/** The CSV read as uploadCsv reads it (null when none was given); a file-wide problem is an ApiError. */
function readCsv(text: string): Review['csv'] {
  if (text.trim() === '') return null;
  const result = parseRecipientsCsv(text);
  return {
    ...result,
    shown: result.rows.slice(0, PREVIEW_ROWS),
    more: Math.max(0, result.rows.length - PREVIEW_ROWS),
    problems: result.errors.map((e) => ({ line: e.line, reason: REASONS[e.reason] ?? e.reason })),
  };
}

async function draftOf(services: ServiceContext, accountId: number, id: number): Promise<Campaign | null> {
  const campaign = await findCampaign(services, accountId, id);
  return campaign.status === 'draft' ? campaign : null;
}

export const campaignRecipientRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/recipients',
    params: CampaignIdParams,
    async handler({ params }, { services, account, koa }) {
      const draft = await draftOf(services, account.id, params.id);
      if (!draft) return seeOther(campaignPath(params.id));
      const typed = StepForm.parse({ department: String(koa.query.department ?? ''), q: String(koa.query.q ?? '').slice(0, 100) });
      return recipientsPage(services, draft, typed);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/recipients',
    audit: 'campaigns.save_recipients',
    params: CampaignIdParams,
    bodyLimitBytes: RECIPIENTS_BODY_LIMIT,
    readBody: readRecipientsBody(LISTS),
    async handler({ params, form }, { services, account }) {
      const draft = await draftOf(services, account.id, params.id);
      if (!draft) return seeOther(campaignPath(params.id));
      const parsed = StepForm.safeParse(form);
      if (!parsed.success) return recipientsPage(services, draft, StepForm.parse({}), { error: 'The form could not be read: pick the recipients again.' }, 400);
      const typed = parsed.data;
      let csv: Review['csv'];
      try {
        csv = readCsv(typed.csv_content);
      } catch (err) {
        if (!(err instanceof ApiError) || (err.status !== 422 && err.status !== 413)) throw err;
        return recipientsPage(services, draft, typed, { errors: { csv: err.message } }, err.status);
      }
      const fromDepartments = await activeMembersOfDepartments(services, account.id, typed.department_ids);
      const memberIds = [...new Set([...typed.member_ids, ...fromDepartments])];
      const review: Review = { members: memberIds.length, csv, total: memberIds.length + (csv?.valid_rows ?? 0) };
      if (review.total === 0) {
        return recipientsPage(services, draft, typed, { review, errors: { recipients: 'Pick at least one member or department, or add a CSV with at least one valid row.' } }, 422);
      }
      if (typed.step === 'check') return recipientsPage(services, draft, typed, { review });
      try {
        await saveRecipients(services, account.id, draft.id, { directoryMemberIds: memberIds, csvRecipients: csv?.rows ?? [], append: false });
      } catch (err) {
        const { message, status } = refusal(err);
        return recipientsPage(services, draft, typed, { review, error: message }, status);
      }
      return seeOther(`${campaignPath(draft.id, 'launch')}?done=recipients`);
    },
  }),
];
