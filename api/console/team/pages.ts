// The console's Team page (Settings › Team): the account's people with their roles; an owner or admin changes a
// member's role (to or from admin: step-up) or removes one (step-up); anyone but the owner may leave. The same
// services as the console API's team routes.
import { ROLES } from '../../../models/Membership.ts';
import { changeableMember, changeMemberRole, leaveAccount, removeMember, roleChangeNeedsStepUp } from '../../../services/team/changes.ts';
import { listMembers } from '../../../services/team/members.ts';
import { roleAllows } from '../../../services/team/roles.ts';
import { clearSessionCookie } from '../../http/session-cookie.ts';
import { definePage, page, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { presentMember } from '../../team/present.ts';
import { MemberParams, RoleBody } from '../../team/schema.ts';

const TEAM_PAGE = `${CONSOLE_PREFIX}/settings/team`;
const manage = { area: 'team', level: 'manage' } as const;
const NOTICES: Record<string, string> = { role: 'The role was changed. It applies from their next click.', removed: 'The member was removed; their sessions here have ended.' };
/** Roles a member can be given here (the owner changes only by a transfer). */
const GIVABLE = ROLES.filter((r) => r !== 'owner');

export const teamPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'team', level: 'view' },
    path: '/settings/team',
    async handler(_input, { services, session, role, koa }) {
      const { rows, count } = await listMembers(services, session.account_id, { page: 1, perPage: 500 });
      const canManage = roleAllows(role, manage);
      const members = rows.map((m) => {
        const you = m.userId === session.owner_id;
        const changeable = canManage && !you && m.role !== 'owner';
        return { ...presentMember(m), you, changeable, roles: GIVABLE.map((r) => ({ role: r, selected: r === m.role })) };
      });
      const notice = NOTICES[String(koa.query.done)];
      return page({ title: 'Team', view: 'team', styles: ['team.css'], members, count, canLeave: role !== 'owner', notice });
    },
  }),
  definePage({
    method: 'post',
    role: manage,
    path: '/settings/team/:user_id/role',
    audit: 'team.member_role',
    params: MemberParams,
    body: RoleBody,
    async handler({ params, body }, { services, session, requireStepUp }) {
      const input = { liveAccountId: session.account_id, actorUserId: session.owner_id, userId: params.user_id, role: body.role };
      const target = await changeableMember(services, input);
      if (roleChangeNeedsStepUp(target.role, body.role)) requireStepUp({ action: 'Making or unmaking an admin', back: TEAM_PAGE });
      await changeMemberRole(services, input);
      return seeOther(`${TEAM_PAGE}?done=role`);
    },
  }),
  definePage({
    method: 'post',
    role: manage,
    path: '/settings/team/:user_id/remove',
    audit: 'team.member_remove',
    params: MemberParams,
    async handler({ params }, { services, session, requireStepUp }) {
      const input = { liveAccountId: session.account_id, actorUserId: session.owner_id, userId: params.user_id };
      await changeableMember(services, input);
      requireStepUp({ action: 'Removing a member', back: TEAM_PAGE });
      await removeMember(services, input);
      return seeOther(`${TEAM_PAGE}?done=removed`);
    },
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/settings/team/leave',
    audit: 'team.leave',
    async handler(_input, { services, session, koa }) {
      await leaveAccount(services, { liveAccountId: session.account_id, userId: session.owner_id });
      clearSessionCookie(koa);
      return seeOther(`${CONSOLE_PREFIX}/sign-in`);
    },
  }),
];
