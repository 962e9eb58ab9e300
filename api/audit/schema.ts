// Contracts of the audit log's reads: the console's and the key API's `audit` area.
import { z } from 'zod';
import { ACTOR_TYPES, AUDIT_SURFACES } from '../../models/AuditEvent.ts';
import { AUDIT_PAGE_MAX } from '../../services/audit/query.ts';
import { numericId, resource } from '../schema-helpers.ts';

const instant = (name: string) => z.iso.datetime({ offset: true, error: `${name} must be an ISO 8601 instant with its offset (2026-12-05T09:00:00Z)` });

export const AuditQuery = z
  .object({
    actor_type: z.enum(ACTOR_TYPES).optional(),
    actor_user_id: resource('console_user', numericId()).optional().describe('a member of this account'),
    actor_key_id: resource('api_key', numericId()).optional(),
    action: z.string().regex(/^[a-z_]{1,30}\.([a-z_]{1,30}|\*)$/, 'action is area.verb, or area.* for every action of an area').optional(),
    target_type: z.string().regex(/^[a-z_]{1,32}$/, 'target_type is a word in lower case').optional(),
    target_id: z.string().min(1).max(64).optional(),
    outcome: z.enum(['success', 'denied']).optional(),
    ip: z.string().min(1).max(64).optional(),
    dateFrom: instant('dateFrom').optional(),
    dateTo: instant('dateTo').optional(),
    perPage: numericId().pipe(z.number().max(AUDIT_PAGE_MAX, `perPage is at most ${AUDIT_PAGE_MAX}`)).default(50),
    before_id: numericId().optional().describe('the next page: meta.next_before_id of this one'),
  })
  .refine((q) => !q.dateFrom || !q.dateTo || Date.parse(q.dateFrom) <= Date.parse(q.dateTo), { message: 'dateFrom is after dateTo', path: ['dateFrom'] });
export type AuditQuery = z.output<typeof AuditQuery>;

export const AuditItem = z.object({
  id: z.number().int(),
  occurred_at: z.string(),
  actor: z.object({ type: z.enum(ACTOR_TYPES), user_id: z.number().int().nullable(), key_id: z.number().int().nullable(), label: z.string().describe('an email, or a key as Name (csk_live_…1234)') }),
  action: z.string().describe('area.verb'),
  target: z.object({ type: z.string().nullable(), id: z.string().nullable() }),
  outcome: z.enum(['success', 'denied']),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
  surface: z.enum(AUDIT_SURFACES),
  details: z.record(z.string(), z.unknown()).nullable().describe('the action’s allow-listed fields; never a secret or a member’s personal data'),
});
export const AuditList = z.array(AuditItem);
export const AuditMeta = z.object({ next_before_id: z.number().int().nullable(), has_more: z.boolean(), retention_days: z.number().int() });

export const AuditEventParams = z.object({ id: resource('audit_event', numericId()) });
