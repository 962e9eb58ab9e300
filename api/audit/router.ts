// The key API's `audit` area (view only): the account's audit log, as the console's Settings › Audit log reads it.
import { notFound } from '../../lib/errors.ts';
import { findAuditEvent } from '../../services/audit/query.ts';
import { defineRoute } from '../http/route.ts';
import { auditListAnswer } from './list.ts';
import { presentAuditEvent } from './present.ts';
import { AuditEventParams, AuditItem, AuditList, AuditMeta, AuditQuery } from './schema.ts';

const tags = ['audit'];
const access = { area: 'audit', level: 'view' } as const;

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/audit/events',
    summary: "Who did what in the key's account, newest first: filters by actor, action (or area.*), target, outcome, address and time; paged by before_id",
    tags,
    access,
    query: AuditQuery,
    response: AuditList,
    meta: AuditMeta,
    async handler({ query }, { services, caller }) {
      return auditListAnswer(services, caller.account, query);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/audit/events/:id',
    summary: 'One row of the audit log (another account’s id: 404)',
    tags,
    access,
    params: AuditEventParams,
    response: AuditItem,
    async handler({ params }, { services, caller }) {
      const event = await findAuditEvent(services, caller.account.id, params.id);
      if (!event) throw notFound(`No audit event with id ${params.id}`);
      return presentAuditEvent(event);
    },
  }),
];
