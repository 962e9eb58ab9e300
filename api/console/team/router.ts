// The console API's people: the account's members with their roles (invitations and changes join them here).
import { defineSessionRoute } from '../../http/route.ts';
import { membersAnswer } from '../../team/present.ts';
import { MemberList, MembersQuery, PageMeta } from '../../team/schema.ts';

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
];
