// Keeping an automation's Temporal Schedule in line with its row (the truth) after each commit and in the worker's
// reconciler: the row is read here, the Schedule written by the lifecycle (workflows/automation/lifecycle.ts).
// sync and delete never throw to their caller: Temporal down (or refusing) is logged, and the reconciler repairs it
// later; apply throws, so the reconciler can count and stop.
import { putAutomationSchedule, removeAutomationSchedule } from '../../workflows/automation/lifecycle.ts';
import type { WorkflowTarget } from '../../workflows/shared/start.ts';
import type { ServiceContext } from '../context.ts';

/** The columns a Schedule depends on. */
export const SCHEDULE_COLUMNS = ['id', 'account_id', 'enabled', 'timing_config'] as const;

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
  await (row ? putAutomationSchedule(target, row) : removeAutomationSchedule(target, accountId, automationId));
}

/** Deletes the automation's Schedule (gone already: nothing to do). */
export async function deleteAutomationSchedule(ctx: ServiceContext, accountId: number, automationId: number): Promise<void> {
  const target = ctx.workflows;
  if (!target) return;
  try {
    await removeAutomationSchedule(target, accountId, automationId);
  } catch (err) {
    ctx.logger.warn({ err, accountId, automationId }, "could not delete the automation's Schedule; the reconciler will remove it");
  }
}
