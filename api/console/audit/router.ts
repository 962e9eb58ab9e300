// The console API's audit log: the current account's rows, newest first, filtered and paged by `before_id`.
import { defineSessionRoute } from '../../http/route.ts';
import { auditListAnswer } from '../../audit/list.ts';
import { AuditList, AuditMeta, AuditQuery } from '../../audit/schema.ts';

export const consoleAuditRoutes = [
  defineSessionRoute({
    method: 'get',
    role: { area: 'audit', level: 'view' },
    path: '/audit/events',
    summary: 'Who did what in this account, newest first: filters by actor, action (or area.*), target, outcome, address and time; paged by before_id',
    query: AuditQuery,
    response: AuditList,
    meta: AuditMeta,
    async handler({ query }, { services, account }) {
      return auditListAnswer(services, account, query);
    },
  }),
];
