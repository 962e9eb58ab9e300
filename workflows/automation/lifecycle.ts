// Automation Schedules on Temporal: one Schedule per automation, written from the row the automations service read
// (services/automations/schedule.ts keeps them in line after each commit and in the worker's reconciler). The only
// Temporal client calls for automations; each throws what went wrong, and its callers decide whether to log it.
import { ScheduleAlreadyRunning, ScheduleNotFoundError, type ScheduleSummary } from '@temporalio/client';
import { withStartDeadline, type WorkflowTarget } from '../shared/start.ts';
import { automationScheduleId, parseAutomationScheduleId } from './contract.ts';
import { automationScheduleOptions, automationScheduleUpdate, type AutomationScheduleRow } from './schedule-spec.ts';

/** The reconciler's listing of every automation Schedule (pages of 1,000). */
const LIST_DEADLINE_MS = 15_000;

/**
 * Creates, updates or pauses the Schedule to match the row. Update first (saves and toggles of existing automations
 * are the common case), create when there is none; a create that finds one made meanwhile (another process's sync)
 * updates it.
 */
export async function putAutomationSchedule(target: WorkflowTarget, row: AutomationScheduleRow, zone: string | null = null): Promise<void> {
  await withStartDeadline(target, async () => {
    const handle = target.client.schedule.getHandle(automationScheduleId(row.account_id, row.id, zone));
    const update = () => handle.update(() => automationScheduleUpdate(row, target.taskQueue, zone));
    try {
      await update();
      return;
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
    try {
      await target.client.schedule.create(automationScheduleOptions(row, target.taskQueue, zone));
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await update();
    }
  });
}

/** Deletes the automation's Schedule, or one zone's (gone already: nothing to do). */
export async function removeAutomationSchedule(target: WorkflowTarget, accountId: number, automationId: number, zone: string | null = null): Promise<void> {
  await withStartDeadline(target, async () => {
    try {
      await target.client.schedule.getHandle(automationScheduleId(accountId, automationId, zone)).delete();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  });
}

export interface ListedAutomationSchedule {
  accountId: number;
  automationId: number;
  /** The zone of a recipient_timezone Schedule; null for an automation's one Schedule. */
  zone: string | null;
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
      const automation = parseAutomationScheduleId(summary.scheduleId);
      if (automation) listed.push({ ...automation, summary });
    }
    return listed;
  });
}
