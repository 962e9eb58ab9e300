// Finding, deactivating, reactivating and erasing one member, and the cursor-paged list for reconciliation.
import { IndexHints, Op, type Transaction, type WhereOptions } from 'sequelize';
import { notFound } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { TeamMember } from '../../models/TeamMember.ts';
import { eventMember, recordMemberEvent, redactMemberEvents, type EventSource } from './events.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { giveSeat, saveMember, takeSeat } from './seats.ts';
import { findMemberBy, type MatchField } from './upsert.ts';
import { loadView, loadViews, type MemberView } from './view.ts';

/** Exactly one of `email` / `employee_id`, normalized. */
export interface MemberKey {
  field: MatchField;
  value: string;
}

async function mustFind(ctx: Pick<ServiceContext, 'models'>, accountId: number, key: MemberKey, transaction: Transaction): Promise<TeamMember> {
  const member = await findMemberBy(ctx, accountId, key.field, key.value, transaction);
  if (!member) throw notFound(`No team member with ${key.field} ${key.value}`);
  return member;
}

/** The member (deactivated ones included), or null. */
export async function findMember(ctx: Pick<ServiceContext, 'models'>, accountId: number, key: MemberKey): Promise<MemberView | null> {
  const member = await findMemberBy(ctx, accountId, key.field, key.value);
  return member ? loadView(ctx, member) : null;
}

export interface StatusChange {
  key: MemberKey;
  source: EventSource;
}

/**
 * Sets the member's `disabled` flag. A real change is recorded (`team_member_deactivated`, or
 * `team_member_updated` with `changed_fields: ["disabled"]` on reactivation); a repeat is a no-op without event.
 * Reactivation takes a seat (403 when none is free), deactivation gives it back, in the same transaction.
 */
export async function setMemberDisabled(ctx: ServiceContext, accountId: number, change: StatusChange, disabled: boolean): Promise<MemberView> {
  return accountTransaction(ctx, accountId, async (transaction, account: Account) => {
    const member = await mustFind(ctx, accountId, change.key, transaction);
    if (member.disabled === disabled) return loadView(ctx, member, transaction);
    const now = ctx.now();
    await saveMember(ctx, member, { disabled }, now, transaction);
    // The seat after the write, as counters go last (seats.ts); a refused reactivation rolls the write back.
    if (disabled) await giveSeat(ctx, accountId, transaction);
    else await takeSeat(ctx, account, transaction);
    const view = await loadView(ctx, member, transaction);
    await recordMemberEvent(
      ctx,
      {
        accountId,
        type: disabled ? 'team_member_deactivated' : 'team_member_updated',
        source: change.source,
        at: now,
        member: eventMember({ ...view, id: member.id }),
        ...(disabled ? {} : { changedFields: ['disabled'] }),
      },
      transaction,
    );
    return view;
  });
}

/**
 * Erases a member for good: the row, its departments and custom dates go (an active member's seat is given back);
 * reports lose the manager link; its earlier events keep only its id. The delete event carries id, email and
 * employee_id so subscribers can erase too.
 */
export async function eraseMember(ctx: ServiceContext, accountId: number, change: StatusChange): Promise<number> {
  const { models } = ctx;
  const erasure = ctx.hooks.memberErased(accountId);
  const erased = await accountTransaction(ctx, accountId, async (transaction) => {
    const member = await mustFind(ctx, accountId, change.key, transaction);
    const now = ctx.now();
    await models.TeamMember.update({ manager_id: null, updated_at: now }, { where: { account_id: accountId, manager_id: member.id }, transaction, silent: true });
    await models.MemberDepartment.destroy({ where: { member_id: member.id }, transaction });
    await models.MemberCustomValue.destroy({ where: { member_id: member.id }, transaction });
    await redactMemberEvents(ctx, accountId, member.id, now, transaction);
    // What other areas hold about the member (campaigns, rewards, automations: app/services.ts lists them).
    await erasure.inTransaction({ id: member.id, email: member.email }, transaction);
    await member.destroy({ transaction });
    if (!member.disabled) await giveSeat(ctx, accountId, transaction);
    await recordMemberEvent(
      ctx,
      {
        accountId,
        type: 'team_member_deleted',
        source: change.source,
        at: now,
        member: { id: member.id, email: member.email, employee_id: member.employee_id },
      },
      transaction,
    );
    return member.id;
  });
  await erasure.afterCommit();
  return erased;
}

export type ListStatus = 'active' | 'deactivated' | 'all';

export interface ListQuery {
  status: ListStatus;
  perPage: number;
  afterId: number;
  updatedSince: Date | undefined;
}

/** Members in id order after `afterId` (keyset paging: every page costs the same, wherever it is). */
export async function listMembers(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: ListQuery): Promise<{ members: MemberView[]; nextAfterId: number | null; hasMore: boolean }> {
  const { models } = ctx;
  const where: WhereOptions = { account_id: accountId, id: { [Op.gt]: query.afterId } };
  if (query.status !== 'all') Object.assign(where, { disabled: query.status === 'deactivated' });
  if (query.updatedSince) Object.assign(where, { updated_at: { [Op.gte]: query.updatedSince } });
  // MariaDB otherwise reads the index by account alone and skips the entries before the cursor one by one
  // (measured by `npm run bench`: the last pages of 100,000 members cost 1.6× the first). A delta pull keeps
  // the optimizer's choice: the updated_at index serves a small delta better than a scan of the account.
  const keyset = query.status === 'all' ? 'team_members_account_id' : 'team_members_account_status_id';
  const rows = await models.TeamMember.findAll({
    where,
    order: [['id', 'ASC']],
    limit: query.perPage + 1,
    ...(query.updatedSince ? {} : { indexHints: [{ type: IndexHints.FORCE, values: [keyset] }] }),
  });
  const hasMore = rows.length > query.perPage;
  const page = rows.slice(0, query.perPage);
  return { members: await loadViews(ctx, accountId, page), nextAfterId: hasMore ? page.at(-1)!.id : null, hasMore };
}
