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
 * follows (services/sends/accept/quota.ts, the same case).
 */
async function makeSeatsRow(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction: Transaction): Promise<number> {
  const { models } = ctx;
  const used = await activeCount(models, accountId, transaction);
  await models.MemberSeats.bulkCreate([{ account_id: accountId, used }], { updateOnDuplicate: ['account_id'], transaction });
  return used;
}

/**
 * Takes the seat of a member just made active (inserted, or reactivated), in that write's transaction: one
 * conditional update, `used < limit` (the plan's limit as a parameter: plans change); none free → 403, and the
 * caller's transaction rolls the member's write back. Last, as every counter is (docs/decisions.md, "Hot paths"):
 * the row stays locked until the commit that follows, so the account's creates wait for each other only there.
 */
export async function takeSeat(ctx: ServiceContext, account: Account, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const limit = ctx.config.seats[account.plan];
  const [taken] = await models.MemberSeats.update({ used: literal('used + 1') }, { where: { account_id: account.id, used: { [Op.lt]: limit } }, transaction });
  if (taken === 1) return;
  if (await models.MemberSeats.findByPk(account.id, { transaction })) throw seatsFull(limit, account.plan);
  // No row: made from the count, which holds this member already.
  if ((await makeSeatsRow(ctx, account.id, transaction)) > limit) throw seatsFull(limit, account.plan);
}

/** Gives back the seat of a member just made inactive (deactivated, or erased while active), in that write's transaction. */
export async function giveSeat(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const [given] = await models.MemberSeats.update({ used: literal('used - 1') }, { where: { account_id: accountId, used: { [Op.gt]: 0 } }, transaction });
  if (given === 0 && !(await models.MemberSeats.findByPk(accountId, { transaction }))) await makeSeatsRow(ctx, accountId, transaction);
}

/** Seats in use (a dry run's reading: it takes none). */
export async function seatsUsed(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction: Transaction): Promise<number> {
  const { models } = ctx;
  const row = await models.MemberSeats.findByPk(accountId, { transaction });
  return row ? row.used : activeCount(models, accountId, transaction);
}

/** 403 when every seat of the plan is taken (a dry run's check; a real create takes the seat: takeSeat). */
export async function assertSeatFree(ctx: ServiceContext, account: Account, transaction: Transaction): Promise<void> {
  const limit = ctx.config.seats[account.plan];
  if ((await seatsUsed(ctx, account.id, transaction)) >= limit) throw seatsFull(limit, account.plan);
}

/** Writes a member's changed columns with `updated_at` from the service's clock (Sequelize's own would ignore it). */
export async function saveMember(ctx: Pick<ServiceContext, 'models'>, member: TeamMember, values: Partial<TeamMember['_creationAttributes']>, at: Date, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const changes = { ...values, updated_at: at };
  await models.TeamMember.update(changes, { where: { id: member.id }, transaction, silent: true });
  member.set(changes, { raw: true });
}
