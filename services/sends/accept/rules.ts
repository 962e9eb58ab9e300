// Who may send to whom: suppressed addresses and blocked domains per account, suspended accounts (anti-spam).
import { createHash } from 'node:crypto';
import { UniqueConstraintError, type Transaction } from 'sequelize';
import { invalidParameter } from '../../../lib/errors.ts';
import type { ServiceContext } from '../../context.ts';

export type SuppressionKind = 'email' | 'domain';

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * What stays on the suppression list of an erased address (erase-address): `sha256:` and the hex SHA-256 of the
 * lower-cased address. It still blocks the address, and the list no longer names it.
 */
export const suppressionHash = (email: string) => `sha256:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

/** The suppression values that would block these (lower-cased) addresses: each address, its hash and its domain. */
export const blockingValues = (lower: readonly string[]) => [...new Set([...lower, ...lower.map(suppressionHash), ...lower.map(domainOf)])];

/** Of the account's suppressions found for these addresses, the first address blocked, with why; null when none is. */
function firstBlocked(lower: readonly string[], rows: ReadonlyArray<{ kind: string; value: string }>): string | null {
  for (const email of lower) {
    if (rows.some((r) => r.kind === 'email' && (r.value === email || r.value === suppressionHash(email)))) return `${email} is on this account's suppression list`;
    if (rows.some((r) => r.kind === 'domain' && r.value === domainOf(email))) return `${domainOf(email)} is a blocked domain of this account`;
  }
  return null;
}

/** The first recipient that is suppressed, or whose domain is blocked, with why; null when none is. */
export async function blockedRecipient(ctx: Pick<ServiceContext, 'models'>, accountId: number, emails: string[], transaction?: Transaction): Promise<string | null> {
  const { models } = ctx;
  if (emails.length === 0) return null;
  const lower = emails.map((e) => e.toLowerCase());
  const rows = await models.Suppression.findAll({ where: { account_id: accountId, value: blockingValues(lower) }, ...(transaction ? { transaction } : {}) });
  return firstBlocked(lower, rows);
}

export async function isSuspended(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction?: Transaction): Promise<boolean> {
  const { models } = ctx;
  return (await models.SendSuspension.count({ where: { account_id: accountId }, ...(transaction ? { transaction } : {}) })) > 0;
}

export interface SuppressionPage {
  rows: Array<{ id: number; kind: SuppressionKind; value: string; reason: string | null; created_at: Date }>;
  count: number;
}

/** An account's suppressed addresses and blocked domains, newest first, paged (the console's list). */
export async function listSuppressions(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: { kind?: SuppressionKind; page: number; perPage: number }): Promise<SuppressionPage> {
  const { models } = ctx;
  const where = { account_id: accountId, ...(query.kind ? { kind: query.kind } : {}) };
  const { rows, count } = await models.Suppression.findAndCountAll({ where, order: [['id', 'DESC']], limit: query.perPage, offset: (query.page - 1) * query.perPage });
  return { rows: rows.map((r) => ({ id: r.id, kind: r.kind, value: r.value, reason: r.reason, created_at: r.created_at })), count };
}

/** Adds an address or domain; `reason` when the service itself suppresses it (an unsubscribe link). False when it already was. */
export async function addSuppression(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number, kind: SuppressionKind, value: string, reason: string | null = null): Promise<boolean> {
  try {
    await ctx.models.Suppression.create({ account_id: accountId, kind, value: value.trim().toLowerCase(), reason, created_at: ctx.now() });
    return true;
  } catch (err) {
    if (err instanceof UniqueConstraintError) return false;
    throw err;
  }
}

/**
 * Suppresses an address for the service's own reason (a hard bounce, a complaint), in the caller's transaction. An
 * address already on the list keeps its entry and reason.
 */
export async function suppressAddress(ctx: Pick<ServiceContext, 'models'>, accountId: number, email: string, reason: string, at: Date, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  await models.Suppression.bulkCreate([{ account_id: accountId, kind: 'email', value: email.trim().toLowerCase(), reason: reason.slice(0, 300), created_at: at }], { ignoreDuplicates: true, transaction });
}

export async function removeSuppression(ctx: Pick<ServiceContext, 'models'>, accountId: number, kind: SuppressionKind, value: string): Promise<boolean> {
  const { models } = ctx;
  const v = value.trim().toLowerCase();
  // An erased address's entry is its hash: removing the address removes that too.
  return (await models.Suppression.destroy({ where: { account_id: accountId, kind, value: kind === 'email' ? [v, suppressionHash(v)] : v } })) > 0;
}

export async function setSuspended(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number, suspended: boolean): Promise<void> {
  const { models } = ctx;
  if (!suspended) {
    await models.SendSuspension.destroy({ where: { account_id: accountId } });
    return;
  }
  await models.SendSuspension.bulkCreate([{ account_id: accountId, created_at: ctx.now() }], { ignoreDuplicates: true });
}

export function validSuppressionValue(kind: SuppressionKind, value: string): string {
  const v = value.trim().toLowerCase();
  const ok = kind === 'email' ? /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) : /^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/.test(v);
  if (!ok) throw invalidParameter(`not a valid ${kind}: ${JSON.stringify(value)}`);
  return v;
}
