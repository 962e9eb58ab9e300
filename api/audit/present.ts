// An audit row as the API answers it, and the filters a query names as the service reads them.
import type { AuditEventView, AuditFilters } from '../../services/audit/query.ts';
import type { AuditQuery } from './schema.ts';

export function presentAuditEvent(e: AuditEventView) {
  return {
    id: e.id,
    occurred_at: e.occurred_at.toISOString(),
    actor: { type: e.actor_type, user_id: e.actor_user_id, key_id: e.actor_key_id, label: e.actor_label },
    action: e.action,
    target: { type: e.target_type, id: e.target_id },
    outcome: e.outcome,
    ip: e.ip,
    user_agent: e.user_agent,
    request_id: e.request_id,
    surface: e.surface,
    details: e.details === null ? null : (JSON.parse(e.details) as Record<string, unknown>),
  };
}

export function filtersOf(query: AuditQuery): AuditFilters {
  const { dateFrom, dateTo, perPage: _perPage, before_id: _before, ...rest } = query;
  return { ...rest, dateFrom: dateFrom ? new Date(dateFrom) : undefined, dateTo: dateTo ? new Date(dateTo) : undefined };
}
