// The audit log as CSV (lib/csv.ts: the BOM and the formula rule), streamed batch by batch.
import { Readable } from 'node:stream';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';
import type { ServiceContext } from '../context.ts';
import { auditBatches, type AuditEventView, type AuditFilters } from './query.ts';

export const AUDIT_CSV_COLUMNS = ['occurred_at', 'actor_type', 'actor', 'action', 'target_type', 'target_id', 'outcome', 'ip', 'user_agent', 'request_id', 'details'] as const;

const lineOf = (e: AuditEventView) => csvLine([e.occurred_at.toISOString(), e.actor_type, e.actor_label, e.action, e.target_type, e.target_id, e.outcome, e.ip, e.user_agent, e.request_id, e.details]);

async function* chunks(ctx: Pick<ServiceContext, 'models'>, accountId: number, filters: AuditFilters): AsyncGenerator<string> {
  yield CSV_BOM + csvLine([...AUDIT_CSV_COLUMNS]);
  for await (const batch of auditBatches(ctx, accountId, filters)) yield batch.map(lineOf).join('');
}

export function auditCsv(ctx: Pick<ServiceContext, 'models'>, accountId: number, filters: AuditFilters): Readable {
  return Readable.from(chunks(ctx, accountId, filters), { objectMode: false });
}
