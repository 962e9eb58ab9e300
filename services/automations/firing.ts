// What a firing asks of the database before and after it finds its due occasions: whether the automation still
// fires (it is re-read: the database is the truth), the firing's local date D and window (W, D], and the move of
// the watermark to D (forward only, one conditional UPDATE).
import { Op } from 'sequelize';
import type { BulkSettings } from '../../workflows/shared/bulk.ts';
import type { ServiceContext } from '../context.ts';
import { loadConfig } from './config.ts';
import { firingWindow, localDateOf, type FiringWindow, type LocalDate } from './due.ts';

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
}

export function firingBulkSettings(ctx: ServiceContext): FiringBulkSettings {
  return { taskQueue: ctx.config.temporal.bulkTaskQueue, ...ctx.config.bulk, heartbeatSeconds: ctx.config.heartbeatSeconds };
}

export async function planFiring(ctx: ServiceContext, input: PlanInput): Promise<FiringPlan> {
  const bulk = firingBulkSettings(ctx);
  const config = await loadConfig(ctx.models, input.accountId, input.automationId);
  if (!config) return { status: 'gone', firingDate: null, window: null, bulk };
  if (!config.row.enabled || !config.timing_config) return { status: 'disabled', firingDate: null, window: null, bulk };
  // D is the local date of the Schedule's nominal time, not of now: a late (catch-up) firing handles its own day.
  const firingDate = localDateOf(new Date(input.scheduledAt), config.timing_config.timezone);
  return { status: 'ready', firingDate, window: firingWindow(config.row.watermark, firingDate), bulk };
}

/** Moves the watermark to `firingDate` unless it is already there or past it; true when it moved. */
export async function advanceWatermark(ctx: ServiceContext, automationId: number, firingDate: LocalDate): Promise<boolean> {
  const [changed] = await ctx.models.Automation.update(
    { watermark: firingDate },
    { where: { id: automationId, [Op.or]: [{ watermark: { [Op.is]: null } }, { watermark: { [Op.lt]: firingDate } }] }, silent: true },
  );
  return changed > 0;
}
