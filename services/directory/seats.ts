// Seats: an account's active members may not outnumber its plan's seats. The count lives in the account's
// member_seats row, kept in the transaction of every write that makes a member active (create, reactivate: a
// conditional update that takes a seat only while one is free) or inactive (deactivate, erase: gives it back), so
// no write has to count members or lock the account to check the limit. Also the member update directory writes share.
import { literal, Op, type Transaction } from 'sequelize';
import { seatLimitReached } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { Models } from '../../models/index.ts';
import type { TeamMember } from '../../models/TeamMember.ts';
import type { ServiceContext } from '../context.ts';

const seatsFull = (limit: number, plan: string) =>
  seatLimitReached(`All ${limit} seats of the ${plan} plan are taken by active members; deactivate one or upgrade the plan`);

const activeCount = (models: Models, accountId: number, transaction: Transaction) =>
  models.TeamMember.count({ where: { account_id: accountId, disabled: false }, transaction });

/**
 * The seats row, made from the active members when missing (the migration made one per existing account, and
 * createAccount makes one with each account, so only an account written by other means lacks it). An upsert, not
 * INSERT IGNORE: on MySQL IGNORE takes a shared lock that two makers would both try to upgrade for the update that
 * follows (services/sends/quota.ts, the same case).
 */
async function makeSeatsRow(models: Models, accountId: number, transaction: Transaction): Promise<void> {
  const used = await activeCount(models, accountId, transaction);
  await models.MemberSeats.bulkCreate([{ account_id: accountId, used }], { updateOnDuplicate: ['account_id'], transaction });
}

/**
 * Takes a seat for a member about to become active: one conditional update, `used < limit` (the plan's limit as a
 * parameter: plans change), before the member's own write, so a refusal (403) leaves the transaction as it was.
 * The row stays locked until commit: the account's creates and reactivations take seats one at a time.
 */
export async function takeSeat(ctx: ServiceContext, account: Account, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const limit = ctx.config.seats[account.plan];
  const take = () => models.MemberSeats.update({ used: literal('used + 1') }, { where: { account_id: account.id, used: { [Op.lt]: limit } }, transaction });
  if ((await take())[0] === 1) return;
  if (await models.MemberSeats.findByPk(account.id, { transaction })) throw seatsFull(limit, account.plan);
  await makeSeatsRow(models, account.id, transaction);
  if ((await take())[0] !== 1) throw seatsFull(limit, account.plan);
}

/** Gives back the seat of a member that stops being active (deactivated or erased while active). */
export async function giveSeat(models: Models, accountId: number, transaction: Transaction): Promise<void> {
  const [given] = await models.MemberSeats.update({ used: literal('used - 1') }, { where: { account_id: accountId, used: { [Op.gt]: 0 } }, transaction });
  if (given === 0 && !(await models.MemberSeats.findByPk(accountId, { transaction }))) await makeSeatsRow(models, accountId, transaction);
}

/** Seats in use (a dry run's reading: it takes none). */
export async function seatsUsed(models: Models, accountId: number, transaction: Transaction): Promise<number> {
  const row = await models.MemberSeats.findByPk(accountId, { transaction });
  return row ? row.used : activeCount(models, accountId, transaction);
}

/** 403 when every seat of the plan is taken (a dry run's check; a real create takes the seat: takeSeat). */
export async function assertSeatFree(ctx: ServiceContext, account: Account, transaction: Transaction): Promise<void> {
  const limit = ctx.config.seats[account.plan];
  if ((await seatsUsed(ctx.models, account.id, transaction)) >= limit) throw seatsFull(limit, account.plan);
}

/** Writes a member's changed columns with `updated_at` from the service's clock (Sequelize's own would ignore it). */
export async function saveMember(models: Models, member: TeamMember, values: Partial<TeamMember['_creationAttributes']>, at: Date, transaction: Transaction): Promise<void> {
  const changes = { ...values, updated_at: at };
  await models.TeamMember.update(changes, { where: { id: member.id }, transaction, silent: true });
  member.set(changes, { raw: true });
}
