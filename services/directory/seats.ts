// What directory writes share (each runs under accountTransaction, so the seat check and the insert are atomic
// and two upserts of one new person run one after the other): the plan's seat rule and the member update.
import type { Transaction } from 'sequelize';
import { seatLimitReached } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { Models } from '../../models/index.ts';
import type { TeamMember } from '../../models/TeamMember.ts';
import type { ServiceContext } from '../context.ts';

/** 403 when every seat of the plan is taken by an active member. */
export async function assertSeatFree(ctx: ServiceContext, account: Account, transaction: Transaction): Promise<void> {
  const limit = ctx.config.seats[account.plan];
  const active = await ctx.models.TeamMember.count({ where: { account_id: account.id, disabled: false }, transaction });
  if (active >= limit) {
    throw seatLimitReached(`All ${limit} seats of the ${account.plan} plan are taken by active members; deactivate one or upgrade the plan`);
  }
}

/** Writes a member's changed columns with `updated_at` from the service's clock (Sequelize's own would ignore it). */
export async function saveMember(models: Models, member: TeamMember, values: Partial<TeamMember['_creationAttributes']>, at: Date, transaction: Transaction): Promise<void> {
  const changes = { ...values, updated_at: at };
  await models.TeamMember.update(changes, { where: { id: member.id }, transaction, silent: true });
  member.set(changes, { raw: true });
}
