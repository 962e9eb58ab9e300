// Reading the audit log: one account's rows, newest first, by `before_id` (stable while new rows arrive), with the
// filters the decisions list; and the same rows in batches for the CSV export.
import { Op, type WhereOptions } from 'sequelize';
import type { ActorType, AuditEvent, AuditOutcome, AuditSurface } from '../../models/AuditEvent.ts';
import { notFound } from '../../lib/errors.ts';
import { findAccountKey } from '../api-keys.ts';
import type { ServiceContext } from '../context.ts';

export interface AuditFilters {
  actor_type?: ActorType | undefined;
  actor_user_id?: number | undefined;
  actor_key_id?: number | undefined;
  /** `area.verb` exactly, or `area.*` for an area's every action. */
  action?: string | undefined;
  target_type?: string | undefined;
  target_id?: string | undefined;
  outcome?: AuditOutcome | undefined;
  ip?: string | undefined;
  dateFrom?: Date | undefined;
  dateTo?: Date | undefined;
}

export const AUDIT_PAGE_MAX = 200;

/** A row as its readers get it (the API's presenter, the page, the CSV): the stored fields, `details` as its JSON text. */
export interface AuditEventView {
  id: number;
  occurred_at: Date;
  actor_type: ActorType;
  actor_user_id: number | null;
  actor_key_id: number | null;
  actor_label: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: AuditOutcome;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  surface: AuditSurface;
  details: string | null;
}

function whereOf(accountId: number, filters: AuditFilters, beforeId?: number): WhereOptions<AuditEvent> {
  const where: Record<string | symbol, unknown> = { account_id: accountId };
  if (beforeId !== undefined) where.id = { [Op.lt]: beforeId };
  for (const key of ['actor_type', 'actor_user_id', 'actor_key_id', 'target_type', 'target_id', 'outcome', 'ip'] as const) {
    if (filters[key] !== undefined) where[key] = filters[key];
  }
  if (filters.action !== undefined) where.action = filters.action.endsWith('.*') ? { [Op.startsWith]: filters.action.slice(0, -1) } : filters.action;
  if (filters.dateFrom || filters.dateTo) {
    where.occurred_at = { ...(filters.dateFrom ? { [Op.gte]: filters.dateFrom } : {}), ...(filters.dateTo ? { [Op.lte]: filters.dateTo } : {}) };
  }
  return where;
}

export interface AuditPage {
  events: AuditEventView[];
  nextBeforeId: number | null;
  hasMore: boolean;
}

/** One page: at most `perPage` rows older than `beforeId` (none: the newest). */
export async function listAuditEvents(ctx: Pick<ServiceContext, 'models'>, accountId: number, filters: AuditFilters, page: { perPage: number; beforeId?: number | undefined }): Promise<AuditPage> {
  const rows = await ctx.models.AuditEvent.findAll({ where: whereOf(accountId, filters, page.beforeId), order: [['id', 'DESC']], limit: page.perPage + 1 });
  const events = rows.slice(0, page.perPage);
  const hasMore = rows.length > page.perPage;
  return { events, hasMore, nextBeforeId: hasMore ? (events.at(-1)?.id ?? null) : null };
}

/** One row of the account (another account's or an unknown id: null). */
export async function findAuditEvent(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number): Promise<AuditEventView | null> {
  return ctx.models.AuditEvent.findOne({ where: { id, account_id: accountId } });
}

/** Every matching row, newest first, 1,000 at a time (the export). */
export async function* auditBatches(ctx: Pick<ServiceContext, 'models'>, accountId: number, filters: AuditFilters): AsyncGenerator<AuditEventView[]> {
  let beforeId: number | undefined;
  for (;;) {
    const page = await listAuditEvents(ctx, accountId, filters, { perPage: 1000, beforeId });
    if (page.events.length) yield page.events;
    if (!page.hasMore || page.nextBeforeId === null) return;
    beforeId = page.nextBeforeId;
  }
}

/** Deletes rows older than the retention, `batch` per statement: how many went. */
export async function pruneAuditEvents(ctx: Pick<ServiceContext, 'models' | 'now' | 'config'>, batch = 5000): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - ctx.config.auditRetentionDays * 86_400_000);
  let total = 0;
  for (;;) {
    const ids = (await ctx.models.AuditEvent.findAll({ where: { occurred_at: { [Op.lt]: cutoff } }, attributes: ['id'], order: [['id', 'ASC']], limit: batch })).map((r) => r.id);
    if (ids.length === 0) return total;
    total += await ctx.models.AuditEvent.destroy({ where: { id: ids } });
    if (ids.length < batch) return total;
  }
}

/** The filters' ids must be the account's: a key of this twin, a member of its live account (else 404, as every id). */
export async function checkFilterIds(ctx: Pick<ServiceContext, 'models'>, account: { id: number; live_account_id: number | null }, filters: AuditFilters): Promise<void> {
  if (filters.actor_key_id !== undefined) await findAccountKey(ctx, account.id, filters.actor_key_id);
  if (filters.actor_user_id !== undefined) {
    const member = await ctx.models.Membership.findOne({ where: { account_id: account.live_account_id ?? account.id, user_id: filters.actor_user_id } });
    if (!member) throw notFound('No member of this account has this id');
  }
}
