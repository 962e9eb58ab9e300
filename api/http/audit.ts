// The route kit's audit step: a declared action is written once the handler succeeded, before the answer; a refusal
// of a key's scope or a member's role is written as `access.denied`. The row's target is the route's first path
// parameter, else the `id` the handler answered; its actor is the key or the signed-in person.
import type { Context } from 'koa';
import type { ConsoleSession } from '../../models/ConsoleSession.ts';
import { type Actor, type AuditDeclaration, type AuditOrigin, keyLabel, recordAudit } from '../../services/audit/record.ts';
import type { ApiServices, Caller } from '../context.ts';

/** The action a declaration writes, or null (`{ none }`, or nothing declared: a read). */
export const declaredAction = (audit: AuditDeclaration | undefined): string | null => (typeof audit === 'string' ? audit : null);

export const originOf = (ctx: Context, surface: AuditOrigin['surface']): AuditOrigin => ({
  surface,
  ip: ctx.ip,
  userAgent: ctx.get('User-Agent') || null,
  requestId: (ctx.state as { requestId?: string }).requestId ?? null,
});

export const keyActor = (caller: Caller): Actor => ({ type: 'api_key', keyId: caller.apiKey.id, label: keyLabel(caller.apiKey, caller.account) });

/** The signed-in person: their email as a page already read it, else read when a row is written (the console API reads no user otherwise). */
export async function sessionActor(services: ApiServices, session: ConsoleSession, email?: string): Promise<Actor> {
  // `owner_id` holds the user's id (models/ConsoleSession.ts).
  const label = email ?? (await services.models.User.findByPk(session.owner_id, { attributes: ['id', 'email'] }))?.email ?? '';
  return { type: 'user', userId: session.owner_id, label };
}

function targetOf(action: string, params: unknown, data: unknown): { type: string; id: string | number } | null {
  const id = [params && typeof params === 'object' ? Object.values(params)[0] : undefined, data && typeof data === 'object' ? (data as { id?: unknown }).id : undefined].find(
    (v): v is string | number => typeof v === 'number' || (typeof v === 'string' && v !== ''),
  );
  return id === undefined ? null : { type: action.slice(0, action.indexOf('.')), id };
}

// People's actions belong to the live account whichever twin the console shows (decisions.md "Teams").
const LIVE_AREAS = new Set(['session', 'user', 'team', 'account']);

/** Writes a route's declared action for the account it acted on (`liveAccountId` for people's own actions). */
export async function auditSuccess(
  services: ApiServices,
  input: { accountId: number; liveAccountId: number; actor: Actor; action: string; params: unknown; data: unknown; origin: AuditOrigin },
): Promise<void> {
  const accountId = LIVE_AREAS.has(input.action.slice(0, input.action.indexOf('.'))) ? input.liveAccountId : input.accountId;
  await recordAudit(services, { accountId, actor: input.actor, action: input.action, target: targetOf(input.action, input.params, input.data), origin: input.origin });
}

/** Writes a refusal of a key's scope or a member's role: which route, and what it needed. */
export async function auditDenied(services: ApiServices, input: { accountId: number; actor: Actor; ctx: Context; surface: AuditOrigin['surface']; required: string }): Promise<void> {
  await recordAudit(services, {
    accountId: input.accountId,
    actor: input.actor,
    action: 'access.denied',
    outcome: 'denied',
    origin: originOf(input.ctx, input.surface),
    details: { method: input.ctx.method, route: (input.ctx as { _matchedRoute?: string })._matchedRoute ?? input.ctx.path, required: input.required },
  });
}
