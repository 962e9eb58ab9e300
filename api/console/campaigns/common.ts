// What every campaign page shares: its paths, the status badge, the wizard's steps, the time zone list, the
// progress figures (the page and the JSON the page's script polls show the same ones) and field errors.
import type { z } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import type { CampaignStatus } from '../../../models/Campaign.ts';
import type { CampaignCounts } from '../../../services/campaigns/view.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';

export const CAMPAIGNS = `${CONSOLE_PREFIX}/campaigns`;
export const campaignPath = (id: number, step = '') => `${CAMPAIGNS}/${id}${step ? `/${step}` : ''}`;

const BADGES: Record<CampaignStatus, string> = {
  draft: 'badge',
  scheduled: 'badge badge-warning',
  sending: 'badge badge-warning',
  sent: 'badge badge-success',
  canceled: 'badge',
  failed: 'badge badge-danger',
};
export const badgeOf = (status: CampaignStatus) => BADGES[status];

/** Whether the campaign's figures still move (its page polls them). */
export const isLive = (status: CampaignStatus) => status === 'scheduled' || status === 'sending';

/** The progress figures: recipients handled (every state but pending) out of all, as a whole percentage. */
export function progressOf(status: CampaignStatus, counts: CampaignCounts) {
  const done = counts.recipients - counts.pending;
  const percent = counts.recipients ? Math.floor((done / counts.recipients) * 100) : 0;
  return { status, live: isLive(status), done, total: counts.recipients, percent, counts };
}

const STEPS = [
  ['details', 'Name and sender'],
  ['ecards', 'eCards'],
  ['recipients', 'Recipients'],
  ['launch', 'Schedule or send'],
] as const;
export type Step = (typeof STEPS)[number][0];

/** The wizard's steps as its header lists them (a new campaign has no links yet). */
export function stepsOf(id: number, current: Step) {
  const at = STEPS.findIndex(([name]) => name === current);
  return STEPS.map(([name, label], i) => ({ label, number: i + 1, current: name === current, done: i < at, href: id ? campaignPath(id, name) : undefined }));
}

/** A zod failure as one message per form field (the first issue of each), for the view to show beside it. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A refusal a form shows (400/422/403 with the service's message); anything else goes on to the error page. */
export function refusal(err: unknown): { message: string; status: number } {
  if (err instanceof ApiError && [400, 403, 409, 413, 422].includes(err.status)) return { message: err.message, status: err.status };
  throw err;
}
