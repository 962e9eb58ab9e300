// The plan's emails per billing month (UTC calendar month): reserved atomically when a send is accepted,
// released for what a cancel or a failure did not send.
import { literal, Op, type Transaction } from 'sequelize';
import { transactionStatement } from '../../lib/transaction-statement.ts';
import type { Models } from '../../models/index.ts';

export const billingMonth = (at: Date) => at.toISOString().slice(0, 7);

/**
 * Adds `count` to the month's use if it stays within `limit`, in one statement; false when it would not (the month's
 * row is then made with 0 if it was missing, as before). An upsert, not INSERT IGNORE then UPDATE: on MySQL IGNORE
 * takes a shared lock on an existing row, which two concurrent reservations (send accepts hold no account lock) would
 * both try to upgrade for the UPDATE, a deadlock; the upsert takes the exclusive lock at once, so they wait in turn.
 * Callers run it after their inserts (the statement order in docs/decisions.md, "Hot paths"): the row stays locked
 * until commit. (Two statements until "Accepts, round two" in docs/performance.md: an upsert of 0, then a
 * conditional UPDATE.)
 */
export async function reserveQuota(models: Models, accountId: number, month: string, count: number, limit: number, transaction: Transaction): Promise<boolean> {
  const n = Number(count);
  const max = Number(limit);
  const insert = 'INSERT INTO quota_usage (account_id, month, used) VALUES (?, ?, CASE WHEN ? <= ? THEN ? ELSE 0 END)';
  const [update, params] = models.sequelize.getDialect() === 'sqlite'
    ? ['ON CONFLICT (account_id, month) DO UPDATE SET used = used + ? WHERE used + ? <= ?', [n, n, max]]
    : ['ON DUPLICATE KEY UPDATE used = CASE WHEN used + ? <= ? THEN used + ? ELSE used END', [n, max, n]];
  // Rows changed: SQLite 1 inserted or updated, 0 not; MySQL (Sequelize connects without FOUND_ROWS) 1 inserted,
  // 2 updated, 0 left as it was. A row inserted for a count over the limit holds 0, the refused reservation's row.
  // On the driver (every accept's statement: lib/transaction-statement.ts).
  const { affectedRows } = await transactionStatement(transaction, `${insert} ${update}`, [accountId, month, n, max, n, ...params]);
  return affectedRows > 0 && count <= limit;
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
