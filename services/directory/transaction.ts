// Every write to an account's directory runs in one transaction that first locks the account, so the seat
// check and the insert are atomic and two upserts of one new person run one after the other.
import type { Transaction } from 'sequelize';
import type { Config } from '../../lib/config.ts';
import { writeTransaction } from '../../lib/db.ts';
import { ApiError } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { Models } from '../../models/index.ts';
import type { TeamMember } from '../../models/TeamMember.ts';

export interface DirectoryDeps {
  models: Models;
  seats: Config['seats'];
  now: () => Date;
}

export async function directoryTransaction<T>(
  models: Models,
  accountId: number,
  work: (transaction: Transaction, account: Account) => Promise<T>,
): Promise<T> {
  // SQLite: the write transaction holds the database's one write lock from BEGIN. MySQL: the account row is
  // locked FOR UPDATE before the first read, so that read sees what the previous holder committed.
  const sqlite = models.sequelize.getDialect() === 'sqlite';
  return writeTransaction(models.sequelize, async (transaction) => {
    const account = await models.Account.findByPk(accountId, { transaction, ...(sqlite ? {} : { lock: transaction.LOCK.UPDATE }) });
    if (!account) throw new ApiError(404, 'not_found', `No account with id ${accountId}`);
    return work(transaction, account);
  });
}

/** 403 when every seat of the plan is taken by an active member. */
export async function assertSeatFree(deps: DirectoryDeps, account: Account, transaction: Transaction): Promise<void> {
  const limit = deps.seats[account.plan];
  const active = await deps.models.TeamMember.count({ where: { account_id: account.id, disabled: false }, transaction });
  if (active >= limit) {
    throw new ApiError(403, 'seat_limit_reached', `All ${limit} seats of the ${account.plan} plan are taken by active members; deactivate one or upgrade the plan`);
  }
}

/** Writes a member's changed columns with `updated_at` from the service's clock (Sequelize's own would ignore it). */
export async function saveMember(models: Models, member: TeamMember, values: Partial<TeamMember['_creationAttributes']>, at: Date, transaction: Transaction): Promise<void> {
  const changes = { ...values, updated_at: at };
  await models.TeamMember.update(changes, { where: { id: member.id }, transaction, silent: true });
  member.set(changes, { raw: true });
}
