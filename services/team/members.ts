// A console member's place in an account: the role read on every console request (so a change or a removal acts at
// once) and the accounts a person may switch between.
import type { Transaction } from 'sequelize';
import type { ConsoleSession } from '../../models/ConsoleSession.ts';
import type { ServiceContext } from '../context.ts';
import type { Role } from './roles.ts';

/** The session's person's role in its live account, or null once they are no longer a member there. */
export async function sessionRole(ctx: Pick<ServiceContext, 'models'>, session: ConsoleSession): Promise<Role | null> {
  // `owner_id` holds the user's id (models/ConsoleSession.ts).
  const membership = await ctx.models.Membership.findOne({ where: { user_id: session.owner_id, account_id: session.account_id }, attributes: ['role'] });
  return membership?.role ?? null;
}

export interface MemberAccount {
  account_id: number;
  name: string;
  role: Role;
}

/** Every live account `userId` is a member of, oldest membership first. */
export async function memberAccounts(ctx: Pick<ServiceContext, 'models'>, userId: number): Promise<MemberAccount[]> {
  const { models } = ctx;
  const memberships = await models.Membership.findAll({ where: { user_id: userId }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const accounts = await models.Account.findAll({ where: { id: memberships.map((m) => m.account_id) }, attributes: ['id', 'name'] });
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  return memberships.flatMap((m) => (names.has(m.account_id) ? [{ account_id: m.account_id, name: names.get(m.account_id) as string, role: m.role }] : []));
}

/** Makes `userId` a member of the live account with `role` (an accepted invitation; the owner at sign-up). */
export async function addMember(ctx: Pick<ServiceContext, 'models'>, input: { accountId: number; userId: number; role: Role }, transaction?: Transaction) {
  return ctx.models.Membership.create({ account_id: input.accountId, user_id: input.userId, role: input.role }, transaction ? { transaction } : {});
}
