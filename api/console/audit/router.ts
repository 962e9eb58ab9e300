// The console API's audit log: the current account's rows, newest first, filtered and paged by `before_id`.
import { checkFilterIds, listAuditEvents } from '../../../services/audit/query.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { filtersOf, presentAuditEvent } from './present.ts';
import { AuditList, AuditMeta, AuditQuery } from './schema.ts';

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
      const filters = filtersOf(query);
      await checkFilterIds(services, account, filters);
      const page = await listAuditEvents(services, account.id, filters, { perPage: query.perPage, beforeId: query.before_id });
      return { data: page.events.map(presentAuditEvent), meta: { next_before_id: page.nextBeforeId, has_more: page.hasMore, retention_days: services.config.auditRetentionDays } };
    },
  }),
];
