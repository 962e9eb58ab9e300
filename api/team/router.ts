// The key API's `team` area (view only: a key never mints a person): the account's members and their roles.
import { defineRoute } from '../http/route.ts';
import { membersAnswer } from './present.ts';
import { MemberList, MembersQuery, PageMeta } from './schema.ts';

export const teamRoutes = [
  defineRoute({
    method: 'get',
    path: '/team/members',
    summary: 'The people of the account with their roles, by who joined first (a sandbox key sees its live account’s people)',
    tags: ['team'],
    access: { area: 'team', level: 'view' },
    query: MembersQuery,
    response: MemberList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      return membersAnswer(services, caller.account, query);
    },
  }),
];
