// The automation workflows' contract (pure: the workflows, the lifecycle, the Schedule spec, the activities and
// services import it): type names, ids, inputs and results. The Schedule's id is a business id; the workflows a
// Schedule starts get Temporal's own ids (`<scheduleId>-<time>`), so firings never dedupe.
import type { BulkSettings } from '../shared/bulk.ts';

/** The workflow type each Schedule starts (the reconciler compares it). */
export const AUTOMATION_FIRING_WORKFLOW = 'automationFiringWorkflow';
export const AUTOMATION_FAN_OUT_WORKFLOW = 'automationFanOutWorkflow';

/**
 * The automation's one Schedule, or (recipient_timezone) the Schedule of one zone in use:
 * `automation/<account>/<id>/<zone>`, the zone an IANA name (it may hold slashes itself: `America/Denver`).
 */
export const automationScheduleId = (accountId: number, automationId: number, zone: string | null = null) =>
  `automation/${accountId}/${automationId}${zone ? `/${zone}` : ''}`;

const SCHEDULE_ID = /^automation\/(\d+)\/(\d+)(?:\/(.+))?$/;

/** The automation (and zone) a Schedule id names, or null for a Schedule that is not an automation's. */
export function parseAutomationScheduleId(scheduleId: string): { accountId: number; automationId: number; zone: string | null } | null {
  const match = SCHEDULE_ID.exec(scheduleId);
  return match ? { accountId: Number(match[1]), automationId: Number(match[2]), zone: match[3] ?? null } : null;
}

/**
 * The batches of one automation's firing date D: a business id, so two firings of the same day (a trigger-now
 * beside the Schedule's own, a catch-up) never send the same rows at once; the second one finds it running.
 */
export const automationFanOutWorkflowId = (accountId: number, automationId: number, firingDate: string, zone: string | null = null) =>
  `automation-firing/${accountId}/${automationId}/${firingDate}${zone ? `/${zone}` : ''}`;

/** What a firing's batches did to its rows (counts only: they land in the histories). */
export type AutomationBatchCounts = Record<'sent' | 'failed' | 'unknown' | 'skipped', number>;

/** Counts only (they land in the workflow's history): the rows of D after the find step, by kind and state. */
export interface FindDueResult {
  cards: number;
  digests: number;
  missed: number;
}

export interface AutomationFiringInput {
  accountId: number;
  automationId: number;
  /**
   * The nominal time to fire for (ISO 8601), for a start by hand; a Schedule's start leaves it out and the
   * workflow reads TemporalScheduledStartTime instead.
   */
  scheduledAt?: string;
  /** recipient_timezone: the zone this firing sends to (its Schedule's), D being the local date there. */
  zone?: string;
}

export interface AutomationFiringResult {
  /** fired: sent (or found nothing left); already_firing: another firing of D was still sending after the waits. */
  status: 'gone' | 'disabled' | 'fired' | 'already_firing';
  firingDate: string | null;
  found: FindDueResult | null;
  counts: AutomationBatchCounts | null;
}

export interface AutomationFanOutInput {
  accountId: number;
  automationId: number;
  firingDate: string;
  afterId: number;
  bulk: BulkSettings;
  /** What earlier runs (before continue-as-new) counted. */
  counts: AutomationBatchCounts | null;
  /** A wave of a local-time firing; absent (fan-outs started before waves): every pending row of D. */
  wave?: AutomationWave;
}

/**
 * One wave of a local-time firing: the rows of one zone (null: the automation's one Schedule) whose send_at is in
 * (dueAfter, dueThrough] (ISO instants); the first wave (dueAfter null) also takes rows without a send_at.
 */
export interface AutomationWave {
  zone: string | null;
  dueAfter: string | null;
  dueThrough: string;
}

/** The workflows' function types: starts name them, so a start's arguments and result are checked (workflows/index.ts). */
export type AutomationFiringWorkflow = (input: AutomationFiringInput) => Promise<AutomationFiringResult>;
export type AutomationFanOutWorkflow = (input: AutomationFanOutInput) => Promise<AutomationBatchCounts>;
