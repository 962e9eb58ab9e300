// Automation Schedules: one Temporal Schedule per automation, kept in line with the database (the truth) after
// each commit and by the worker's reconciler. The only Temporal client calls for automations.
// sync and delete never throw to their caller: Temporal down (or refusing) is logged, and the reconciler repairs it
// later; the reconciler's own calls (apply, list) throw, so it can count and stop.
import { ScheduleAlreadyRunning, ScheduleNotFoundError, type ScheduleSummary } from '@temporalio/client';
import type { ServiceContext } from '../../services/context.ts';
import type { WorkflowTarget } from '../shared/start.ts';
import { automationScheduleId } from './ids.ts';
import { automationScheduleOptions, automationScheduleUpdate, type AutomationScheduleRow } from './schedule-spec.ts';

export { automationScheduleId };

/** How long one sync may wait on Temporal (an unreachable server must not hold a save for long). */
const TEMPORAL_DEADLINE_MS = 5_000;
/** The reconciler's listing of every automation Schedule (pages of 1,000). */
const LIST_DEADLINE_MS = 15_000;
/** The columns a Schedule depends on. */
export const SCHEDULE_COLUMNS = ['id', 'account_id', 'enabled', 'timing_config'] as const;

const SCHEDULE_ID = /^automation\/(\d+)\/(\d+)$/;

/** Creates, updates, pauses or deletes the automation's Schedule to match its row (absent row → deleted). */
export async function syncAutomationSchedule(ctx: ServiceContext, accountId: number, automationId: number): Promise<void> {
  const target = ctx.workflows;
  if (!target) return;
  try {
    await applyAutomationSchedule(ctx, target, accountId, automationId);
  } catch (err) {
    ctx.logger.warn({ err, accountId, automationId }, "could not sync the automation's Schedule; the reconciler will repair it");
  }
}

/** syncAutomationSchedule that throws what went wrong (the reconciler counts failures). */
export async function applyAutomationSchedule(ctx: ServiceContext, target: WorkflowTarget, accountId: number, automationId: number): Promise<void> {
  const row = await ctx.models.Automation.findOne({ attributes: [...SCHEDULE_COLUMNS], where: { id: automationId, account_id: accountId } });
  await withDeadline(target, () => (row ? putSchedule(target, row) : removeSchedule(target, automationScheduleId(accountId, automationId))));
}

/** Deletes the automation's Schedule (gone already: nothing to do). */
export async function deleteAutomationSchedule(ctx: ServiceContext, accountId: number, automationId: number): Promise<void> {
  const target = ctx.workflows;
  if (!target) return;
  try {
    await withDeadline(target, () => removeSchedule(target, automationScheduleId(accountId, automationId)));
  } catch (err) {
    ctx.logger.warn({ err, accountId, automationId }, "could not delete the automation's Schedule; the reconciler will remove it");
  }
}

export interface ListedAutomationSchedule {
  accountId: number;
  automationId: number;
  summary: ScheduleSummary;
}

/**
 * Every automation Schedule Temporal lists (eventually consistent: a change of the last moments may not show yet).
 * Throws when Temporal cannot be reached: the reconciler's pass fails and runs again at its next turn.
 */
export async function listAutomationSchedules(target: WorkflowTarget): Promise<ListedAutomationSchedule[]> {
  return target.client.withDeadline(Date.now() + LIST_DEADLINE_MS, async () => {
    const listed: ListedAutomationSchedule[] = [];
    for await (const summary of target.client.schedule.list({ pageSize: 1000 })) {
      const match = SCHEDULE_ID.exec(summary.scheduleId);
      if (match) listed.push({ accountId: Number(match[1]), automationId: Number(match[2]), summary });
    }
    return listed;
  });
}

function withDeadline<T>(target: WorkflowTarget, work: () => Promise<T>): Promise<T> {
  return target.client.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, work);
}

// Update first (saves and toggles of existing automations are the common case), create when there is none; a
// create that finds one made meanwhile (another process's sync) updates it.
async function putSchedule(target: WorkflowTarget, row: AutomationScheduleRow): Promise<void> {
  const handle = target.client.schedule.getHandle(automationScheduleId(row.account_id, row.id));
  const update = () => handle.update(() => automationScheduleUpdate(row, target.taskQueue));
  try {
    await update();
    return;
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  try {
    await target.client.schedule.create(automationScheduleOptions(row, target.taskQueue));
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await update();
  }
}

async function removeSchedule(target: WorkflowTarget, scheduleId: string): Promise<void> {
  try {
    await target.client.schedule.getHandle(scheduleId).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}
