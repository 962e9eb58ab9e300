// The daily gift expiry's Temporal Schedule: one for the whole service (`gift-expiry`), every day at 00:10 UTC, on
// the service's task queue. Every worker ensures it at its start (app/services.ts); the expiry itself is
// idempotent, so a run more or less never matters. The only Temporal client calls for rewards.
import { ScheduleAlreadyRunning, type ScheduleDescription, type ScheduleOptions, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import type { WorkflowTarget } from '../shared/start.ts';
import { GIFT_EXPIRY_SCHEDULE_ID, GIFT_EXPIRY_WORKFLOW, type GiftExpiryWorkflow } from './contract.ts';
/** When it fires, UTC: just after midnight, so an order due today is expired early in the day. */
export const GIFT_EXPIRY_AT = { hour: 0, minute: 10 } as const;

/** How long one ensure may wait on Temporal (it runs in the worker's background loop). */
const TEMPORAL_DEADLINE_MS = 10_000;
/** A run missed by up to a day (Temporal or every worker down) still runs when it comes back. */
const CATCHUP_WINDOW_MS = 86_400_000;

export function giftExpiryScheduleOptions(taskQueue: string) {
  return {
    scheduleId: GIFT_EXPIRY_SCHEDULE_ID,
    spec: { calendars: [{ ...GIFT_EXPIRY_AT, comment: 'daily gift expiry' }], timezone: 'UTC' },
    action: {
      type: 'startWorkflow',
      workflowType: GIFT_EXPIRY_WORKFLOW,
      // Temporal appends the scheduled time: `gift-expiry-<time>`, a new id per day.
      workflowId: GIFT_EXPIRY_SCHEDULE_ID,
      taskQueue,
      args: [],
    } satisfies ScheduleOptionsStartWorkflowAction<GiftExpiryWorkflow>,
    // SKIP: a run still going when the next is due (or triggered) means the next does not start.
    policies: { overlap: 'SKIP', catchupWindow: CATCHUP_WINDOW_MS },
    state: { note: 'expires unclaimed gift orders past their expires_at' },
  } satisfies ScheduleOptions;
}

const single = (ranges: ReadonlyArray<{ start: number; end: number }> | undefined) =>
  ranges?.length === 1 && ranges[0]!.end <= ranges[0]!.start ? ranges[0]!.start : undefined;

/** Whether the Schedule Temporal holds fires the expiry at 00:10 UTC on this task queue. */
export function giftExpiryScheduleMatches(described: Pick<ScheduleDescription, 'spec' | 'action'>, taskQueue: string): boolean {
  const calendars = described.spec.calendars ?? [];
  return (
    described.action.workflowType === GIFT_EXPIRY_WORKFLOW &&
    described.action.taskQueue === taskQueue &&
    (described.spec.intervals ?? []).length === 0 &&
    calendars.length === 1 &&
    single(calendars[0]!.hour) === GIFT_EXPIRY_AT.hour &&
    single(calendars[0]!.minute) === GIFT_EXPIRY_AT.minute &&
    (described.spec.timezone ?? 'UTC') === 'UTC'
  );
}

/**
 * Creates the Schedule; one that exists already (another worker, an earlier start) is a success, brought back in
 * line only when it fires something else or on another task queue (TEMPORAL_TASK_QUEUE changed). Throws when
 * Temporal cannot be reached: the worker's pass tries again at its next turn.
 */
export async function ensureGiftExpirySchedule(target: WorkflowTarget): Promise<'created' | 'exists' | 'updated'> {
  const options = giftExpiryScheduleOptions(target.taskQueue);
  return target.client.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, async () => {
    try {
      await target.client.schedule.create(options);
      return 'created';
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
    const handle = target.client.schedule.getHandle(GIFT_EXPIRY_SCHEDULE_ID);
    if (giftExpiryScheduleMatches(await handle.describe(), target.taskQueue)) return 'exists';
    const { spec, action, policies } = options;
    await handle.update((previous) => ({ spec, action, policies, state: previous.state }));
    return 'updated';
  });
}
