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

/** A member of an account as the Team page and `team` reads show them. */
export interface TeamMemberView {
  userId: number;
  email: string;
  name: string;
  role: Role;
  totpEnabled: boolean;
  joinedAt: Date;
  lastSignInAt: Date | null;
}

/** One page of a live account's members, by who joined first: the rows and how many there are. */
export async function listMembers(ctx: Pick<ServiceContext, 'models'>, liveAccountId: number, page: { page: number; perPage: number }): Promise<{ rows: TeamMemberView[]; count: number }> {
  const { models } = ctx;
  const { rows, count } = await models.Membership.findAndCountAll({
    where: { account_id: liveAccountId },
    order: [['created_at', 'ASC'], ['id', 'ASC']],
    limit: page.perPage,
    offset: (page.page - 1) * page.perPage,
  });
  const users = await models.User.findAll({ where: { id: rows.map((m) => m.user_id) }, attributes: ['id', 'email', 'name', 'totp_secret', 'last_sign_in_at'] });
  const byId = new Map(users.map((u) => [u.id, u]));
  return {
    count,
    rows: rows.flatMap((m) => {
      const user = byId.get(m.user_id);
      if (!user) return [];
      return [{ userId: user.id, email: user.email, name: user.name, role: m.role, totpEnabled: user.totp_secret !== null, joinedAt: m.created_at, lastSignInAt: user.last_sign_in_at }];
    }),
  };
}

/** Makes `userId` a member of the live account with `role` (an accepted invitation; the owner at sign-up). */
export async function addMember(ctx: Pick<ServiceContext, 'models'>, input: { accountId: number; userId: number; role: Role }, transaction?: Transaction) {
  return ctx.models.Membership.create({ account_id: input.accountId, user_id: input.userId, role: input.role }, transaction ? { transaction } : {});
}
