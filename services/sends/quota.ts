// The plan's emails per billing month (UTC calendar month): reserved atomically when a send is accepted,
// released for what a cancel or a failure did not send.
import { literal, Op, type Transaction } from 'sequelize';
import type { Models } from '../../models/index.ts';

export const billingMonth = (at: Date) => at.toISOString().slice(0, 7);

/**
 * Adds `count` to the month's use if it stays within `limit` (one conditional update); false when it would not.
 * The row is made on first use by an upsert, not INSERT IGNORE: on MySQL IGNORE takes a shared lock on an existing
 * row, which two concurrent reservations (send accepts hold no account lock) would both try to upgrade for the
 * UPDATE, a deadlock; the upsert takes the exclusive lock at once, so they wait in turn. Callers run it after
 * their inserts (the statement order in docs/decisions.md, "Hot paths"): the row stays locked until commit.
 */
export async function reserveQuota(models: Models, accountId: number, month: string, count: number, limit: number, transaction: Transaction): Promise<boolean> {
  await models.QuotaUsage.bulkCreate([{ account_id: accountId, month, used: 0 }], { updateOnDuplicate: ['account_id'], transaction });
  const [changed] = await models.QuotaUsage.update(
    { used: literal(`used + ${Number(count)}`) },
    { where: { account_id: accountId, month, used: { [Op.lte]: limit - count } }, transaction },
  );
  return changed === 1;
}

export async function releaseQuota(models: Models, accountId: number, month: string, count: number, transaction?: Transaction): Promise<void> {
  if (count <= 0) return;
  await models.QuotaUsage.update(
    { used: literal(`used - ${Number(count)}`) },
    { where: { account_id: accountId, month, used: { [Op.gte]: count } }, ...(transaction ? { transaction } : {}) },
  );
}

/** What is left of the month's quota (for refusals that say how much remains). */
export async function quotaRemaining(models: Models, accountId: number, month: string, limit: number, transaction?: Transaction): Promise<number> {
  const row = await models.QuotaUsage.findOne({ where: { account_id: accountId, month }, ...(transaction ? { transaction } : {}) });
  return Math.max(0, limit - (row?.used ?? 0));
}
