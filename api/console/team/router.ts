// The console API's people: the account's members with their roles; changing a role (to or from admin: step-up),
// removing a member (step-up; their sessions there end), leaving. Invitations join them here.
import { changeableMember, changeMemberRole, leaveAccount, removeMember, roleChangeNeedsStepUp } from '../../../services/team/changes.ts';
import { findMemberView } from '../../../services/team/members.ts';
import { clearSessionCookie } from '../../http/session-cookie.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { membersAnswer, presentMember } from '../../team/present.ts';
import { Done, MemberList, MemberParams, MembersQuery, PageMeta, RoleBody, TeamMember } from '../../team/schema.ts';

const manage = { area: 'team', level: 'manage' } as const;

export const consoleTeamRoutes = [
  defineSessionRoute({
    method: 'get',
    role: { area: 'team', level: 'view' },
    path: '/team/members',
    summary: 'The people of this account with their roles, by who joined first',
    query: MembersQuery,
    response: MemberList,
    meta: PageMeta,
    async handler({ query }, { services, account }) {
      return membersAnswer(services, account, query);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: manage,
    path: '/team/members/:user_id/role',
    audit: 'team.member_role',
    summary: 'Gives a member another role (not the owner, not yourself; to or from admin needs step-up); the member is emailed',
    params: MemberParams,
    body: RoleBody,
    response: TeamMember,
    async handler({ params, body }, { services, session, requireStepUp }) {
      const input = { liveAccountId: session.account_id, actorUserId: session.owner_id, userId: params.user_id, role: body.role };
      const target = await changeableMember(services, input);
      if (roleChangeNeedsStepUp(target.role, body.role)) requireStepUp({ action: 'Making or unmaking an admin' });
      await changeMemberRole(services, input);
      return presentMember((await findMemberView(services, session.account_id, params.user_id))!);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: manage,
    path: '/team/members/:user_id/remove',
    audit: 'team.member_remove',
    summary: 'Removes a member (not the owner, not yourself; step-up): their sessions here end at once and they are emailed',
    params: MemberParams,
    response: Done,
    async handler({ params }, { services, session, requireStepUp }) {
      const input = { liveAccountId: session.account_id, actorUserId: session.owner_id, userId: params.user_id };
      await changeableMember(services, input);
      requireStepUp({ action: 'Removing a member' });
      await removeMember(services, input);
      return { ok: true as const };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/team/leave',
    audit: 'team.leave',
    summary: 'Leaves this account (the owner transfers it first: 422 owner_must_transfer); your sessions on it end, this one too',
    response: Done,
    async handler(_input, { services, session, koa }) {
      await leaveAccount(services, { liveAccountId: session.account_id, userId: session.owner_id });
      clearSessionCookie(koa);
      return { ok: true as const };
    },
  }),
];
