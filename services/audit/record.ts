// Writing the audit log: one row per action, after it succeeded (or was refused) and before the answer. A row names
// ids and an actor's label, never a secret, a token, a code, a message body or a member's personal data: `details`
// holds only what the caller passes from an action's allow-list, as JSON of at most 4 KB.
import type { Transaction } from 'sequelize';
import type { Account } from '../../models/Account.ts';
import type { ApiKey } from '../../models/ApiKey.ts';
import type { ActorType, AuditOutcome, AuditSurface } from '../../models/AuditEvent.ts';
import type { ServiceContext } from '../context.ts';

/** What a route declares of the audit log: its action (`area.verb`), or why it writes none (decisions.md "Teams"). */
export type AuditDeclaration = `${string}.${string}` | { none: string };

export const DETAILS_LIMIT = 4096;

export interface Actor {
  type: ActorType;
  userId?: number | null;
  keyId?: number | null;
  /** An email, or a key's name with its masked form. */
  label: string;
}

/** Where the request came from, as the log shows it. */
export interface AuditOrigin {
  surface: AuditSurface;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export interface AuditEntry {
  accountId: number;
  actor: Actor;
  action: string;
  target?: { type: string; id: string | number } | null;
  outcome?: AuditOutcome;
  origin: AuditOrigin;
  details?: Record<string, string | number | boolean | null>;
}

/** A key as the log names it: `Name (csk_live_…1234)`; the sandbox's keys are `csk_test_`. */
export function keyLabel(key: Pick<ApiKey, 'name' | 'last4'>, account: Pick<Account, 'live_account_id'>): string {
  return `${key.name} (csk_${account.live_account_id === null ? 'live' : 'test'}_…${key.last4})`;
}

const clip = (text: string | null | undefined, max: number) => (text ? text.slice(0, max) : null);

function detailsJson(details: AuditEntry['details']): string | null {
  if (!details || Object.keys(details).length === 0) return null;
  const json = JSON.stringify(details);
  // An allow-listed value is short; a longer one is cut rather than refused (the action happened).
  return json.length <= DETAILS_LIMIT ? json : JSON.stringify({ truncated: true });
}

export async function recordAudit(ctx: Pick<ServiceContext, 'models' | 'now'>, entry: AuditEntry, transaction?: Transaction): Promise<void> {
  await ctx.models.AuditEvent.create(
    {
      account_id: entry.accountId,
      occurred_at: ctx.now(),
      actor_type: entry.actor.type,
      actor_user_id: entry.actor.userId ?? null,
      actor_key_id: entry.actor.keyId ?? null,
      actor_label: entry.actor.label.slice(0, 400),
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target ? String(entry.target.id).slice(0, 64) : null,
      outcome: entry.outcome ?? 'success',
      ip: clip(entry.origin.ip, 64),
      user_agent: clip(entry.origin.userAgent, 255),
      request_id: clip(entry.origin.requestId, 64),
      surface: entry.origin.surface,
      details: detailsJson(entry.details),
    },
    transaction ? { transaction } : {},
  );
}
