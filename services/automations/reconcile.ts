// The automations' reconciler, a worker background pass (at its start, then every AUTOMATION_RECONCILE_SECONDS):
// makes Temporal's automation Schedules match the automations table, the truth. A Schedule missing or drifted
// (calendar, zone, paused state) is synced again; one without its automation is deleted. Each repair is the
// same sync a save makes, which reads the row again, so a change committed meanwhile is not undone.
import { Op } from 'sequelize';
import { listAutomationSchedules, type ListedAutomationSchedule } from '../../workflows/automation/lifecycle.ts';
import { scheduleMatches } from '../../workflows/automation/schedule-spec.ts';
import type { ServiceContext } from '../context.ts';
import { applyAutomationSchedule, SCHEDULE_COLUMNS } from './schedule.ts';

export interface ReconcileReport {
  /** Automations read. */
  checked: number;
  /** Schedules created or updated. */
  repaired: number;
  /** Schedules deleted (their automation is gone). */
  removed: number;
  failed: number;
}

const PAGE_SIZE = 500;
/** Repairs failing one after another: Temporal went away mid-pass, so the pass stops (and runs at its next turn). */
const MAX_FAILURES_IN_A_ROW = 5;

const keyOf = (accountId: number, automationId: number) => `${accountId}/${automationId}`;

export async function reconcileAutomationSchedules(ctx: ServiceContext, options: { pageSize?: number } = {}): Promise<ReconcileReport> {
  const report: ReconcileReport = { checked: 0, repaired: 0, removed: 0, failed: 0 };
  const target = ctx.workflows;
  if (!target) return report;
  const pageSize = options.pageSize ?? PAGE_SIZE;
  // Listed before the rows are read: a Schedule in the list was synced after its row's commit, so the row (if it
  // still exists) is in the pages below, and only a Schedule whose automation is really gone is left over.
  const listed = new Map<string, ListedAutomationSchedule>();
  for (const schedule of await listAutomationSchedules(target)) listed.set(keyOf(schedule.accountId, schedule.automationId), schedule);

  let inARow = 0;
  const repair = async (accountId: number, automationId: number, counter: 'repaired' | 'removed') => {
    try {
      await applyAutomationSchedule(ctx, target, accountId, automationId);
      report[counter] += 1;
      inARow = 0;
    } catch (err) {
      report.failed += 1;
      inARow += 1;
      ctx.logger.warn({ err, accountId, automationId }, "the reconciler could not repair an automation's Schedule");
      if (inARow >= MAX_FAILURES_IN_A_ROW) throw new Error(`${inARow} Schedule repairs failed in a row; the reconciler stops until its next run`, { cause: err });
    }
  };

  for (let after = 0; ; ) {
    const rows = await ctx.models.Automation.findAll({
      attributes: [...SCHEDULE_COLUMNS],
      where: { id: { [Op.gt]: after } },
      order: [['id', 'ASC']],
      limit: pageSize,
    });
    for (const row of rows) {
      report.checked += 1;
      const key = keyOf(row.account_id, row.id);
      const schedule = listed.get(key);
      listed.delete(key);
      if (!schedule || !scheduleMatches(row, schedule.summary)) await repair(row.account_id, row.id, 'repaired');
    }
    if (rows.length < pageSize) break;
    after = rows[rows.length - 1]!.id;
  }
  // Left over: Schedules whose automation is gone (the sync reads the row once more and deletes them).
  for (const orphan of listed.values()) await repair(orphan.accountId, orphan.automationId, 'removed');
  if (report.repaired + report.removed + report.failed > 0) ctx.logger.info({ ...report }, 'automation Schedules reconciled');
  return report;
}
