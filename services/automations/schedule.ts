// Keeping an automation's Temporal Schedules in line with its row (the truth) after each commit and in the worker's
// reconciler: the row is read here, the Schedules written by the lifecycle (workflows/automation/lifecycle.ts).
// An automation has one Schedule, or with recipient_timezone (enabled) one per zone in use, each with its own
// watermark row (automation_zone_watermarks), written before its Schedule so a zone never fires without one.
// sync and delete never throw to their caller: Temporal down (or refusing) is logged, and the reconciler repairs it
// later; apply throws, so the reconciler can count and stop.
import { Op } from 'sequelize';
import { putAutomationSchedule, removeAutomationSchedule } from '../../workflows/automation/lifecycle.ts';
import { scheduleZones, timingOf, type AutomationScheduleRow } from '../../workflows/automation/schedule-spec.ts';
import type { WorkflowTarget } from '../../workflows/shared/start.ts';
import type { ServiceContext } from '../context.ts';
import { lastPassedDate } from './due.ts';

/** The columns a Schedule depends on. */
export const SCHEDULE_COLUMNS = ['id', 'account_id', 'enabled', 'timing_config'] as const;

/**
 * The zones of the account's active members (members without one use the automation's zone, always in use).
 * The whole account, not the automation's scope: a zone's firing whose members are out of scope finds nothing.
 */
export async function memberZones(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<string[]> {
  const { models } = ctx;
  const rows = await models.TeamMember.findAll({
    attributes: ['timezone'],
    where: { account_id: accountId, disabled: false, timezone: { [Op.ne]: null } },
    group: ['timezone'],
    raw: true,
  });
  return rows.map((r) => r.timezone!).sort();
}

/** The zones the automation's Schedules should fire in ([null]: its one Schedule). */
export async function wantedZones(ctx: Pick<ServiceContext, 'models'>, row: AutomationScheduleRow, zonesOfMembers?: readonly string[]): Promise<Array<string | null>> {
  const timing = timingOf(row.timing_config);
  if (!timing?.recipientTimezone || !row.enabled) return scheduleZones(row, []);
  return scheduleZones(row, zonesOfMembers ?? (await memberZones(ctx, row.account_id)));
}

/** Creates, updates, pauses or deletes the automation's Schedules to match its row (absent row → deleted). */
export async function syncAutomationSchedule(ctx: ServiceContext, accountId: number, automationId: number, formerZones: readonly string[] = []): Promise<void> {
  const target = ctx.workflows;
  if (!target) return;
  try {
    await applyAutomationSchedule(ctx, target, accountId, automationId, formerZones);
  } catch (err) {
    ctx.logger.warn({ err, accountId, automationId }, "could not sync the automation's Schedule; the reconciler will repair it");
  }
}

/**
 * syncAutomationSchedule that throws what went wrong (the reconciler counts failures). `formerZones`: zone
 * Schedules known to the caller besides those with a watermark row (a deleted automation's, read before).
 */
export async function applyAutomationSchedule(ctx: ServiceContext, target: WorkflowTarget, accountId: number, automationId: number, formerZones: readonly string[] = []): Promise<void> {
  const { models } = ctx;
  const row = await models.Automation.findOne({ attributes: [...SCHEDULE_COLUMNS], where: { id: automationId, account_id: accountId } });
  const held = (await models.AutomationZoneWatermark.findAll({ attributes: ['zone'], where: { automation_id: automationId }, raw: true })).map((r) => r.zone);
  const wanted = row ? await wantedZones(ctx, row) : [];
  const timing = row ? timingOf(row.timing_config) : null;
  for (const zone of wanted) {
    if (zone && timing) {
      // A zone new to the automation starts at its last passed send time: nothing before now is sent there.
      const watermark = lastPassedDate(ctx.now(), `${String(timing.hour).padStart(2, '0')}:${String(timing.minute).padStart(2, '0')}`, zone);
      await models.AutomationZoneWatermark.bulkCreate([{ automation_id: automationId, zone, watermark }], { ignoreDuplicates: true });
    }
    await putAutomationSchedule(target, row!, zone);
  }
  if (!wanted.includes(null)) await removeAutomationSchedule(target, accountId, automationId);
  for (const zone of new Set([...held, ...formerZones])) {
    if (wanted.includes(zone)) continue;
    await removeAutomationSchedule(target, accountId, automationId, zone);
    await models.AutomationZoneWatermark.destroy({ where: { automation_id: automationId, zone } });
  }
}

/** Deletes the automation's Schedules (gone already: nothing to do); `zones`: its zone Schedules, read before. */
export async function deleteAutomationSchedule(ctx: ServiceContext, accountId: number, automationId: number, zones: readonly string[] = []): Promise<void> {
  const target = ctx.workflows;
  if (!target) return;
  try {
    await removeAutomationSchedule(target, accountId, automationId);
    for (const zone of zones) await removeAutomationSchedule(target, accountId, automationId, zone);
  } catch (err) {
    ctx.logger.warn({ err, accountId, automationId }, "could not delete the automation's Schedule; the reconciler will remove it");
  }
}
