// The plan's emails per billing month (UTC calendar month): reserved atomically when a send is accepted,
// released for what a cancel or a failure did not send.
import type { ServiceContext } from '../../context.ts';
import { literal, Op, type Transaction } from 'sequelize';
import { addIfWithinLimit } from '../../../lib/written-statements.ts';

export const billingMonth = (at: Date) => at.toISOString().slice(0, 7);

/**
 * Adds `count` to the month's use if it stays within `limit`, in one statement; false when it would not (nothing is
 * written then). An upsert, not INSERT IGNORE then UPDATE: on MySQL IGNORE takes a shared lock on an existing row,
 * which two concurrent reservations (send accepts hold no account lock) would both try to upgrade for the UPDATE, a
 * deadlock; the upsert takes the exclusive lock at once, so they wait in turn. Callers run it after their inserts
 * (the statement order in docs/decisions.md, "Hot paths"): the row stays locked until commit. (Two statements until
 * "Accepts, round two" in docs/performance.md: an upsert of 0, then a conditional UPDATE.)
 */
export async function reserveQuota(ctx: Pick<ServiceContext, 'models'>, accountId: number, month: string, count: number, limit: number, transaction: Transaction): Promise<boolean> {
  const { models } = ctx;
  return addIfWithinLimit(models.sequelize, transaction, { table: 'quota_usage', key: { account_id: accountId, month }, column: 'used', n: Number(count), limit: Number(limit) });
}

export async function releaseQuota(ctx: Pick<ServiceContext, 'models'>, accountId: number, month: string, count: number, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  if (count <= 0) return;
  await models.QuotaUsage.update(
    { used: literal(`used - ${Number(count)}`) },
    { where: { account_id: accountId, month, used: { [Op.gte]: count } }, ...(transaction ? { transaction } : {}) },
  );
}

/** What is left of the month's quota (for refusals that say how much remains). */
export async function quotaRemaining(ctx: Pick<ServiceContext, 'models'>, accountId: number, month: string, limit: number, transaction?: Transaction): Promise<number> {
  const { models } = ctx;
  const row = await models.QuotaUsage.findOne({ where: { account_id: accountId, month }, ...(transaction ? { transaction } : {}) });
  return Math.max(0, limit - (row?.used ?? 0));
}
