// The automations' reconciler, a worker background pass (at its start, then every AUTOMATION_RECONCILE_SECONDS):
// makes Temporal's automation Schedules match the automations table, the truth. A Schedule missing or drifted
// (calendar, zone, paused state) is synced again; one without its automation (or, recipient_timezone, a zone no
// member is in any more) is deleted, and a zone a member has newly come to gets its Schedule. Each repair is the
// same sync a save makes, which reads the row again, so a change committed meanwhile is not undone.
import { Op } from 'sequelize';
import { listAutomationSchedules, type ListedAutomationSchedule } from '../../workflows/automation/lifecycle.ts';
import { automationScheduleId } from '../../workflows/automation/contract.ts';
import { scheduleMatches, timingOf } from '../../workflows/automation/schedule-spec.ts';
import type { ServiceContext } from '../context.ts';
import { applyAutomationSchedule, memberZones, SCHEDULE_COLUMNS, wantedZones } from './schedule.ts';

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
  for (const schedule of await listAutomationSchedules(target)) listed.set(schedule.summary.scheduleId, schedule);
  // Zones in use, read once per account and pass (only for automations sending at each recipient's local time).
  const zonesOf = new Map<number, string[]>();
  const accountZones = async (accountId: number) => zonesOf.get(accountId) ?? zonesOf.set(accountId, await memberZones(ctx, accountId)).get(accountId)!;

  let inARow = 0;
  const repair = async (accountId: number, automationId: number, counter: 'repaired' | 'removed', formerZones: string[] = []) => {
    try {
      await applyAutomationSchedule(ctx, target, accountId, automationId, formerZones);
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
      const zoned = row.enabled && timingOf(row.timing_config)?.recipientTimezone === true;
      let drifted = false;
      for (const zone of await wantedZones(ctx, row, zoned ? await accountZones(row.account_id) : [])) {
        const id = automationScheduleId(row.account_id, row.id, zone);
        const schedule = listed.get(id);
        listed.delete(id);
        if (!schedule || !scheduleMatches(row, schedule.summary, zone)) drifted = true;
      }
      if (drifted) await repair(row.account_id, row.id, 'repaired');
    }
    if (rows.length < pageSize) break;
    after = rows[rows.length - 1]!.id;
  }
  // Left over: Schedules whose automation is gone, or zones it no longer fires in (the sync reads the row once more
  // and deletes them), one sync per automation.
  const orphans = new Map<string, { accountId: number; automationId: number; zones: string[] }>();
  for (const orphan of listed.values()) {
    const key = keyOf(orphan.accountId, orphan.automationId);
    const entry = orphans.get(key) ?? orphans.set(key, { accountId: orphan.accountId, automationId: orphan.automationId, zones: [] }).get(key)!;
    if (orphan.zone) entry.zones.push(orphan.zone);
  }
  for (const orphan of orphans.values()) await repair(orphan.accountId, orphan.automationId, 'removed', orphan.zones);
  if (report.repaired + report.removed + report.failed > 0) ctx.logger.info({ ...report }, 'automation Schedules reconciled');
  return report;
}
