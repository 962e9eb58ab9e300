// A console member's place in an account: the role read on every console request (so a change or a removal acts at
// once) and the accounts a person may switch between.
import type { Transaction } from 'sequelize';
import type { ConsoleSession } from '../../models/ConsoleSession.ts';
import type { Membership } from '../../models/Membership.ts';
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

/** The people of these memberships, in their order (a membership whose user is gone is left out). */
async function viewsOf(ctx: Pick<ServiceContext, 'models'>, memberships: readonly Membership[]): Promise<TeamMemberView[]> {
  const users = await ctx.models.User.findAll({ where: { id: memberships.map((m) => m.user_id) }, attributes: ['id', 'email', 'name', 'totp_secret', 'last_sign_in_at'] });
  const byId = new Map(users.map((u) => [u.id, u]));
  return memberships.flatMap((m) => {
    const user = byId.get(m.user_id);
    if (!user) return [];
    return [{ userId: user.id, email: user.email, name: user.name, role: m.role, totpEnabled: user.totp_secret !== null, joinedAt: m.created_at, lastSignInAt: user.last_sign_in_at }];
  });
}

/** One page of a live account's members, by who joined first: the rows and how many there are. */
export async function listMembers(ctx: Pick<ServiceContext, 'models'>, liveAccountId: number, page: { page: number; perPage: number }): Promise<{ rows: TeamMemberView[]; count: number }> {
  const { rows, count } = await ctx.models.Membership.findAndCountAll({
    where: { account_id: liveAccountId },
    order: [['created_at', 'ASC'], ['id', 'ASC']],
    limit: page.perPage,
    offset: (page.page - 1) * page.perPage,
  });
  return { rows: await viewsOf(ctx, rows), count };
}

/** One member of the live account as the list shows them, or null. */
export async function findMemberView(ctx: Pick<ServiceContext, 'models'>, liveAccountId: number, userId: number): Promise<TeamMemberView | null> {
  const membership = await ctx.models.Membership.findOne({ where: { account_id: liveAccountId, user_id: userId } });
  return membership ? ((await viewsOf(ctx, [membership]))[0] ?? null) : null;
}

/** Makes `userId` a member of the live account with `role` (an accepted invitation; the owner at sign-up). */
export async function addMember(ctx: Pick<ServiceContext, 'models'>, input: { accountId: number; userId: number; role: Role }, transaction?: Transaction) {
  return ctx.models.Membership.create({ account_id: input.accountId, user_id: input.userId, role: input.role }, transaction ? { transaction } : {});
}
