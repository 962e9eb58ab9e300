// One page of the audit log as both surfaces answer it (the console's `/audit/events`, the key API's `audit` area).
import type { Account } from '../../models/Account.ts';
import { checkFilterIds, listAuditEvents } from '../../services/audit/query.ts';
import type { ServiceContext } from '../../services/context.ts';
import { filtersOf, presentAuditEvent } from './present.ts';
import type { AuditQuery } from './schema.ts';

export async function auditListAnswer(ctx: Pick<ServiceContext, 'models' | 'config'>, account: Account, query: AuditQuery) {
  const filters = filtersOf(query);
  await checkFilterIds(ctx, account, filters);
  const page = await listAuditEvents(ctx, account.id, filters, { perPage: query.perPage, beforeId: query.before_id });
  return { data: page.events.map(presentAuditEvent), meta: { next_before_id: page.nextBeforeId, has_more: page.hasMore, retention_days: ctx.config.auditRetentionDays } };
}
