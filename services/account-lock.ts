// A write transaction that first locks the account's row: the writes of one account that must not interleave
// (a seat check and its insert, a quota check and its send, two uses of one idempotency key) run one after the
// other, on every database, instead of deadlocking or racing.
import type { ServiceContext } from './context.ts';
import type { Transaction } from 'sequelize';
import { writeTransaction } from '../lib/db.ts';
import { notFound } from '../lib/errors.ts';
import type { Account } from '../models/Account.ts';

/**
 * Locks the account's row inside a write transaction already open (one whose first statement this is). SQLite: the
 * write transaction holds the database's one write lock from BEGIN. MySQL: the row is locked FOR UPDATE before the
 * first read, so that read sees what the previous holder committed.
 */
export function lockAccount(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction: Transaction): Promise<Account | null> {
  const { models } = ctx;
  const sqlite = models.sequelize.getDialect() === 'sqlite';
  return models.Account.findByPk(accountId, { transaction, ...(sqlite ? {} : { lock: transaction.LOCK.UPDATE }) });
}

/**
 * The account's row under a shared lock (MySQL; SQLite: the write transaction's lock, as above), for writes of one
 * account that may run side by side (member upserts) yet must not run beside those under the account's lock: taken
 * first, as theirs is, the account comes first in every transaction's lock order (no deadlock between the two kinds).
 */
export function shareAccount(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction: Transaction): Promise<Account | null> {
  const { models } = ctx;
  const sqlite = models.sequelize.getDialect() === 'sqlite';
  return models.Account.findByPk(accountId, { transaction, ...(sqlite ? {} : { lock: transaction.LOCK.SHARE }) });
}

export async function accountTransaction<T>(ctx: Pick<ServiceContext, 'models'>, accountId: number, work: (transaction: Transaction, account: Account) => Promise<T>): Promise<T> {
  const { models } = ctx;
  return writeTransaction(models.sequelize, async (transaction) => {
    const account = await lockAccount(ctx, accountId, transaction);
    if (!account) throw notFound(`No account with id ${accountId}`);
    return work(transaction, account);
  });
}
