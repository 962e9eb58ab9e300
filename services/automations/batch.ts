// One batch of an automation firing (the bulk activity's work), as a campaign batch: the pending rows of the firing's
// date D with ids in (afterId, throughId] are prepared in one transaction under the account's lock (prepare.ts),
// then delivered by the bulk sender in claimed micro-batches, and take the state their sends ended in. Safe to run
// again at any point: a retry prepares only rows without a send and never emails a claimed one twice.
import { Op } from 'sequelize';
import type { AutomationSendStatus } from '../../models/AutomationSend.ts';
import type { AutomationBatchCounts, AutomationWave } from '../../workflows/automation/contract.ts';
import { deliverPrepared, settleFromSends, type SettledState } from '../bulk-send/steps.ts';
import { listUnsubscribeHeaders } from '../sends/delivery/unsubscribe.ts';
import type { ServiceContext } from '../context.ts';
import { releaseQuota } from '../sends/accept/quota.ts';
import { loadConfig } from './config.ts';
import type { LocalDate } from './due.ts';
import { prepareRows } from './prepare.ts';

export interface AutomationBatchInput {
  accountId: number;
  automationId: number;
  firingDate: LocalDate;
  afterId: number;
  throughId: number;
  /** A wave of a local-time firing: only its zone's rows whose send_at falls in it (absent: every row of D). */
  wave?: AutomationWave | undefined;
}

/** The rows of a wave: its zone's, with send_at in (dueAfter, dueThrough]; the first (dueAfter null) also takes rows without one. */
function waveWhere(wave: AutomationWave | undefined) {
  if (!wave) return {};
  const through = { [Op.lte]: new Date(wave.dueThrough) };
  if (wave.dueAfter === null) return { zone: wave.zone, [Op.or]: [{ send_at: { [Op.is]: null } }, { send_at: through }] };
  return { zone: wave.zone, send_at: { ...through, [Op.gt]: new Date(wave.dueAfter) } };
}

export const noBatchCounts = (): AutomationBatchCounts => ({ sent: 0, failed: 0, unknown: 0, skipped: 0 });

/**
 * Batch bounds over the pending rows of (automation, D) after `afterId`: batch i covers ids in
 * (bounds[i], bounds[i + 1]]. At most `count` batches of `limit` rows; ids only, never member data.
 */
export async function automationBatchBounds(
  ctx: ServiceContext,
  input: { automationId: number; firingDate: LocalDate; afterId: number; limit: number; count: number; wave?: AutomationWave | undefined },
): Promise<number[]> {
  const ids = await ctx.models.AutomationSend.findAll({
    attributes: ['id'],
    where: { automation_id: input.automationId, firing_date: input.firingDate, status: 'pending', id: { [Op.gt]: input.afterId }, ...waveWhere(input.wave) },
    order: [['id', 'ASC']],
    limit: input.limit * input.count,
    raw: true,
  });
  if (ids.length === 0) return [];
  const bounds = [input.afterId];
  for (let i = input.limit - 1; i < ids.length; i += input.limit) bounds.push(ids[i]!.id);
  if (bounds[bounds.length - 1] !== ids[ids.length - 1]!.id) bounds.push(ids[ids.length - 1]!.id);
  return bounds;
}

/** Rows still pending take their send's state; a failed one gives its quota back (unknown stays counted). */
async function settle(ctx: ServiceContext, accountId: number, rowIds: number[]): Promise<void> {
  const { models } = ctx;
  const open = await models.AutomationSend.findAll({ attributes: ['id', 'send_id'], where: { id: rowIds, status: 'pending', send_id: { [Op.ne]: null } }, raw: true });
  const set = (ids: number[], status: AutomationSendStatus, reason: string | null) =>
    models.AutomationSend.update({ status, reason }, { where: { id: ids, status: 'pending' } }).then(([n]) => n);
  await settleFromSends(ctx, open.map((r) => ({ id: r.id, send_id: r.send_id! })), async (ids, state: SettledState, reason) => {
    if (state !== 'failed') return set(ids, state, reason);
    // Grouped by the month each was reserved in; only what this call moved is released.
    const rows = await models.AutomationSend.findAll({ attributes: ['id', 'quota_month'], where: { id: ids, status: 'pending' }, raw: true });
    let changed = 0;
    for (const month of new Set(rows.map((r) => r.quota_month))) {
      const moved = await set(rows.filter((r) => r.quota_month === month).map((r) => r.id), 'failed', reason);
      if (month) await releaseQuota(ctx, accountId, month, moved);
      changed += moved;
    }
    return changed;
  });
}

export async function sendAutomationBatch(ctx: ServiceContext, input: AutomationBatchInput, run: { lastTry: boolean; heartbeat: () => void }): Promise<AutomationBatchCounts> {
  const { models } = ctx;
  const range = { automation_id: input.automationId, firing_date: input.firingDate, id: { [Op.gt]: input.afterId, [Op.lte]: input.throughId }, ...waveWhere(input.wave) };
  const page = await models.AutomationSend.findAll({ attributes: ['id', 'send_id'], where: { ...range, status: 'pending' }, order: [['id', 'ASC']], raw: true });
  if (page.length === 0) return countsOf(ctx, input);
  const config = await loadConfig(ctx, input.accountId, input.automationId);
  const unprepared = page.filter((r) => r.send_id === null).map((r) => r.id);
  if (!config?.row.enabled) {
    // Turned off mid-firing: what is not prepared yet is not sent; prepared rows still finish below.
    if (unprepared.length) await models.AutomationSend.update({ status: 'skipped', reason: 'disabled' }, { where: { id: unprepared, status: 'pending', send_id: { [Op.is]: null } } });
  } else if (unprepared.length) {
    await prepareRows(ctx, config, unprepared);
  }
  run.heartbeat();
  const ids = page.map((r) => r.id);
  const prepared = await models.AutomationSend.findAll({ attributes: ['send_id'], where: { id: ids, status: 'pending', send_id: { [Op.ne]: null } }, raw: true });
  try {
    await deliverPrepared(ctx, input.accountId, prepared.map((r) => r.send_id!), { ...run, headersFor: listUnsubscribeHeaders(ctx, input.accountId) });
  } finally {
    await settle(ctx, input.accountId, ids);
  }
  return countsOf(ctx, input);
}

async function countsOf(ctx: ServiceContext, input: AutomationBatchInput): Promise<AutomationBatchCounts> {
  const rows = await ctx.models.AutomationSend.findAll({
    attributes: ['status'],
    where: { automation_id: input.automationId, firing_date: input.firingDate, id: { [Op.gt]: input.afterId, [Op.lte]: input.throughId }, ...waveWhere(input.wave) },
    raw: true,
  });
  const counts = noBatchCounts();
  for (const r of rows) if (r.status in counts) counts[r.status as keyof AutomationBatchCounts] += 1;
  return counts;
}
