// Changing who is in an account: a member's role, their removal, leaving. The owner is never changed here (a
// transfer is the owner's own action). Each change takes the account's lock, ends at once what it must (the removed
// person's sessions there) and emails the person it happened to.
import { notFound, ownerByTransfer, ownerImmutable, ownerMustTransfer, ownRole } from '../../lib/errors.ts';
import type { Membership } from '../../models/Membership.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { queueNotice } from '../owner-mail.ts';
import type { Role } from './roles.ts';
import type { Transaction } from 'sequelize';

type Ctx = Pick<ServiceContext, 'models' | 'now'>;

/** A member of the live account, or 404 (another account's person, or nobody: the same answer). */
export async function findMembership(ctx: Pick<ServiceContext, 'models'>, liveAccountId: number, userId: number, transaction?: Transaction): Promise<Membership> {
  const membership = await ctx.models.Membership.findOne({ where: { account_id: liveAccountId, user_id: userId }, ...(transaction ? { transaction } : {}) });
  if (!membership) throw notFound(`No member of this account has the id ${userId}`);
  return membership;
}

/**
 * The member `userId` as the actor may change them (404 for anyone not a member; not oneself: leave instead; not
 * the owner), and never into the owner (`role`, when given). The routes ask it first (whether the change needs
 * step-up depends on the member's role); the change asks again under the account's lock.
 */
export async function changeableMember(ctx: Pick<ServiceContext, 'models'>, input: { liveAccountId: number; actorUserId: number; userId: number; role?: Role }, transaction?: Transaction): Promise<Membership> {
  const target = await findMembership(ctx, input.liveAccountId, input.userId, transaction);
  if (target.user_id === input.actorUserId) throw ownRole('You cannot change your own role or remove yourself; leave the account instead');
  if (target.role === 'owner') throw ownerImmutable("The owner's role changes only when the owner transfers the account");
  if (input.role === 'owner') throw ownerByTransfer('Someone becomes the owner only when the owner transfers the account');
  return target;
}

/** Whether a role change moves power enough to need the actor's password again: to or from admin. */
export const roleChangeNeedsStepUp = (from: Role, to: Role): boolean => from !== to && (from === 'admin' || to === 'admin');

async function tell(ctx: Ctx, transaction: Transaction, liveAccountId: number, userId: number, notice: { kind: string; subject: string; paragraphs: string[] }) {
  const user = await ctx.models.User.findByPk(userId, { attributes: ['id', 'email'], transaction });
  if (user) await queueNotice(ctx, { accountId: liveAccountId, recipient: user.email }, notice, ctx.now(), transaction);
}

/** Gives a member another role (not the owner, not oneself; never `owner`): their previous role. Acts on their next request. */
export async function changeMemberRole(ctx: Ctx, input: { liveAccountId: number; actorUserId: number; userId: number; role: Role }): Promise<{ from: Role; to: Role }> {
  return accountTransaction(ctx, input.liveAccountId, async (transaction, account) => {
    const target = await changeableMember(ctx, input, transaction);
    const from = target.role;
    if (from === input.role) return { from, to: from };
    await ctx.models.Membership.update({ role: input.role }, { where: { id: target.id }, transaction });
    await tell(ctx, transaction, input.liveAccountId, input.userId, {
      kind: 'member_role_changed',
      subject: `Your role in ${account.name} is now ${input.role}`,
      paragraphs: [`Your role in the card service account “${account.name}” changed from ${from} to ${input.role}.`, 'If you did not expect this, ask the account’s owner.'],
    });
    return { from, to: input.role };
  });
}

/** Ends a membership and the person's sessions on the account; they no longer open it at sign-in. */
async function endMembership(ctx: Ctx, transaction: Transaction, liveAccountId: number, membership: Membership): Promise<void> {
  const { models } = ctx;
  await models.Membership.destroy({ where: { id: membership.id }, transaction });
  // `owner_id` holds the user's id (models/ConsoleSession.ts); a sandbox session is on the live account too.
  await models.ConsoleSession.destroy({ where: { owner_id: membership.user_id, account_id: liveAccountId }, transaction });
  await models.User.update({ last_account_id: null }, { where: { id: membership.user_id, last_account_id: liveAccountId }, transaction });
}

/** Removes a member (not the owner, not oneself): their sessions there end at once, and they are told. */
export async function removeMember(ctx: Ctx, input: { liveAccountId: number; actorUserId: number; userId: number }): Promise<void> {
  await accountTransaction(ctx, input.liveAccountId, async (transaction, account) => {
    const target = await changeableMember(ctx, input, transaction);
    await endMembership(ctx, transaction, input.liveAccountId, target);
    await tell(ctx, transaction, input.liveAccountId, input.userId, {
      kind: 'member_removed',
      subject: `You were removed from ${account.name}`,
      paragraphs: [`You are no longer a member of the card service account “${account.name}”; your sessions there have ended.`, 'If you did not expect this, ask the account’s owner.'],
    });
  });
}

/** The signed-in person leaves the account (the owner must transfer it first); every session of theirs there ends. */
export async function leaveAccount(ctx: Ctx, input: { liveAccountId: number; userId: number }): Promise<void> {
  await accountTransaction(ctx, input.liveAccountId, async (transaction) => {
    const own = await findMembership(ctx, input.liveAccountId, input.userId, transaction);
    if (own.role === 'owner') throw ownerMustTransfer('The owner leaves only after transferring the account to an admin');
    await endMembership(ctx, transaction, input.liveAccountId, own);
  });
}
