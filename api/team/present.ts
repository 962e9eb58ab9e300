// A member as the API answers it, and one page of them (the console's `/team/members` and the key API's `team` area).
import type { ServiceContext } from '../../services/context.ts';
import { listMembers, type TeamMemberView } from '../../services/team/members.ts';
import { pageMeta } from '../schema-helpers.ts';

export function presentMember(m: TeamMemberView) {
  return {
    user_id: m.userId,
    email: m.email,
    name: m.name,
    role: m.role,
    totp_enabled: m.totpEnabled,
    joined_at: m.joinedAt.toISOString(),
    last_sign_in_at: m.lastSignInAt?.toISOString() ?? null,
  };
}

/** People are the live account's: a sandbox key or the console in sandbox mode sees the same. */
export async function membersAnswer(ctx: Pick<ServiceContext, 'models'>, account: { id: number; live_account_id: number | null }, query: { page: number; perPage: number }) {
  const { rows, count } = await listMembers(ctx, account.live_account_id ?? account.id, query);
  return { data: rows.map(presentMember), meta: pageMeta(query.page, query.perPage, count) };
}
