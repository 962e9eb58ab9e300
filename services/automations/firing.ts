// What a firing asks of the database before and after it finds its due occasions: whether the automation still
// fires (it is re-read: the database is the truth), the firing's local date D and window (W, D], and the move of
// the watermark to D (forward only, one conditional UPDATE).
import { Op } from 'sequelize';
import type { BulkSettings } from '../../workflows/shared/bulk.ts';
import type { ServiceContext } from '../context.ts';
import { loadConfig } from './config.ts';
import { addDays, firingWindow, localDateOf, type FiringWindow, type LocalDate } from './due.ts';

/** Where the firing's batches run: from configuration, handed to the workflow by the plan (never hard-coded there). */
export type FiringBulkSettings = BulkSettings;

export interface FiringPlan {
  /** gone: no such automation (deleted); disabled: off, or without a timing; ready: fire for `firingDate`. */
  status: 'gone' | 'disabled' | 'ready';
  firingDate: LocalDate | null;
  window: FiringWindow | null;
  bulk: FiringBulkSettings;
}

export interface PlanInput {
  accountId: number;
  automationId: number;
  /** The Schedule's nominal time of this firing (ISO 8601), from TemporalScheduledStartTime. */
  scheduledAt: string;
  /** recipient_timezone: the firing's zone (its Schedule's). */
  zone?: string;
}

export function firingBulkSettings(ctx: ServiceContext): FiringBulkSettings {
  return { taskQueue: ctx.config.temporal.bulkTaskQueue, ...ctx.config.bulk, heartbeatSeconds: ctx.config.heartbeatSeconds };
}

export async function planFiring(ctx: ServiceContext, input: PlanInput): Promise<FiringPlan> {
  const bulk = firingBulkSettings(ctx);
  const config = await loadConfig(ctx, input.accountId, input.automationId);
  if (!config) return { status: 'gone', firingDate: null, window: null, bulk };
  if (!config.row.enabled || !config.timing_config) return { status: 'disabled', firingDate: null, window: null, bulk };
  // A zone's firing of an automation no longer sending at local times (or the reverse) fires nothing: the sync
  // removes its Schedule.
  if (Boolean(input.zone) !== Boolean(config.timing_config.recipient_timezone)) return { status: 'disabled', firingDate: null, window: null, bulk };
  // D is the local date of the Schedule's nominal time, not of now: a late (catch-up) firing handles its own day.
  const firingDate = localDateOf(new Date(input.scheduledAt), input.zone ?? config.timing_config.timezone);
  if (!input.zone) return { status: 'ready', firingDate, window: firingWindow(config.row.watermark, firingDate), bulk };
  // A zone without its watermark row yet (the sync writes it before its Schedule) handles D alone.
  const held = await ctx.models.AutomationZoneWatermark.findOne({ where: { automation_id: config.row.id, zone: input.zone } });
  return { status: 'ready', firingDate, window: firingWindow(held?.watermark ?? addDays(firingDate, -1), firingDate), bulk };
}

/** A zone's watermark to `firingDate`, forward only; true when it moved (or was written). */
export async function advanceZoneWatermark(ctx: ServiceContext, automationId: number, zone: string, firingDate: LocalDate): Promise<boolean> {
  const [changed] = await ctx.models.AutomationZoneWatermark.update(
    { watermark: firingDate },
    { where: { automation_id: automationId, zone, watermark: { [Op.lt]: firingDate } } },
  );
  if (changed > 0) return true;
  const created = await ctx.models.AutomationZoneWatermark.bulkCreate([{ automation_id: automationId, zone, watermark: firingDate }], { ignoreDuplicates: true });
  return created.length > 0 && (await ctx.models.AutomationZoneWatermark.count({ where: { automation_id: automationId, zone, watermark: firingDate } })) > 0;
}

/**
 * The instants the pending rows of a firing (D, and its zone: null for the automation's one Schedule) may go
 * out at, ascending (ISO): the firing sends them in that many waves, waiting for each.
 */
export async function sendWaves(ctx: ServiceContext, input: { automationId: number; firingDate: LocalDate; zone: string | null }): Promise<string[]> {
  const rows = await ctx.models.AutomationSend.findAll({
    attributes: ['send_at'],
    where: { automation_id: input.automationId, firing_date: input.firingDate, zone: input.zone, status: 'pending' },
    group: ['send_at'],
  });
  // A row without send_at (older than local time) goes at once: the first wave takes it.
  const instants = rows.map((r) => r.send_at?.getTime() ?? 0);
  return [...new Set(instants)].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString());
}

/** Moves the watermark to `firingDate` unless it is already there or past it; true when it moved. */
export async function advanceWatermark(ctx: ServiceContext, automationId: number, firingDate: LocalDate): Promise<boolean> {
  const [changed] = await ctx.models.Automation.update(
    { watermark: firingDate },
    { where: { id: automationId, [Op.or]: [{ watermark: { [Op.is]: null } }, { watermark: { [Op.lt]: firingDate } }] }, silent: true },
  );
  return changed > 0;
}
