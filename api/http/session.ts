// The session surface in one place: who is signed in ("me"), the CSRF and same-origin checks of unsafe requests,
// and the step-up check, for the console's JSON API and its pages alike.
import type { Context } from 'koa';
import { ApiError, csrfInvalid, ownerOnly, roleForbidden } from '../../lib/errors.ts';
import { needLabel, type Role, type RoleNeed, roleAllows } from '../../services/team/roles.ts';
import type { MemberAccount } from '../../services/team/members.ts';
import type { ConsoleSession } from '../../models/ConsoleSession.ts';
import type { Account } from '../../models/Account.ts';
import { csrfTokenOf, sameSecret, sessionAccount, STEP_UP_MS } from '../../services/console/sessions.ts';
import type { ApiServices } from '../context.ts';
import type { Me, PageResult, PageSession, StepUpNeed } from './route.ts';

export const CONSOLE_PREFIX = '/v2/console';
export const CONSOLE_API_PREFIX = `${CONSOLE_PREFIX}/api`;
export const CONSOLE_HOME = `${CONSOLE_PREFIX}/`;

/** Only a console path of this service: never another origin (`//evil`, `/\\evil`, `https:`). */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith(`${CONSOLE_PREFIX}/`) || next.includes('\\') || next.includes('//') || [...next].some((c) => c.charCodeAt(0) < 32)) return CONSOLE_HOME;
  return next;
}

/** The signed-in user, the live account and the current one (`account`, when the caller has it, saves a read). */
export async function readMe(services: ApiServices, session: ConsoleSession, account?: Account): Promise<Me> {
  const current = account ?? (await sessionAccount(services, session));
  const [user, live] = await Promise.all([
    // `owner_id` holds the user's id (models/ConsoleSession.ts).
    services.models.User.findByPk(session.owner_id, { rejectOnEmpty: true }),
    // The live account: the same row in live mode, one more read in sandbox mode.
    session.mode === 'sandbox' || current.id !== session.account_id ? services.models.Account.findByPk(session.account_id, { rejectOnEmpty: true }) : current,
  ]);
  return { user, live, account: current };
}

/** A page's view of the signed-in user (the layout's header and forms). */
export function pageSessionOf(session: ConsoleSession, me: Me, role: Role, accounts: MemberAccount[]): PageSession {
  return {
    session,
    account: me.account,
    role,
    me: { owner_email: me.user.email, account_name: me.live.name, plan: me.live.plan },
    accounts: accounts.map((a) => ({ ...a, current: a.account_id === session.account_id })),
    csrf: csrfTokenOf(session),
    sandbox: session.mode === 'sandbox',
  };
}

/** Why a member's role does not meet `need`: 403 `owner_only` for the owner's actions, else `role_forbidden`; null when it does. */
export function roleRefusal(role: Role, need: RoleNeed): ApiError | null {
  if (roleAllows(role, need)) return null;
  if (need === 'owner') return ownerOnly('Only the account’s owner may do this', { extra: { role, required: 'owner' } });
  const required = needLabel(need);
  return roleForbidden(`Your role (${role}) does not allow this: it needs ${required}`, { extra: { role, required } });
}

export function checkRole(role: Role, need: RoleNeed): void {
  const refusal = roleRefusal(role, need);
  if (refusal) throw refusal;
}

export const isRoleRefusal = (err: unknown): err is ApiError => err instanceof ApiError && (err.code === roleForbidden.code || err.code === ownerOnly.code);

/** A page a role may not see: the console's layout (its navigation shows what the role may), the reason, 403. */
export const roleRefusedPage = (refusal: ApiError): PageResult => ({ view: { title: 'Not available to your role', view: 'error', message: refusal.message }, status: refusal.status });

/** Thrown by a step-up check: the API answers 403, a page a 303 to the step-up page. */
export class StepUpRequired extends Error {
  constructor(readonly need: StepUpNeed) {
    super(`${need.action} needs a step-up`);
  }
}

export const stepUpFresh = (services: Pick<ApiServices, 'now'>, session: ConsoleSession) =>
  Boolean(session.step_up_at && services.now().getTime() - session.step_up_at.getTime() <= STEP_UP_MS);

export const stepUpLocation = (back: string) => `${CONSOLE_PREFIX}/step-up?next=${encodeURIComponent(safeNext(back))}`;

/** The CSRF token a request or form carries, against the expected one, else 403 with `message`. */
export function checkCsrf(given: unknown, expected: string, message: string): void {
  if (!sameSecret(typeof given === 'string' ? given : undefined, expected)) throw csrfInvalid(message);
}

/** A form's `_csrf` field (urlencoded forms, and the multipart code upload). */
export function formCsrf(raw: unknown): unknown {
  if (raw instanceof FormData) return raw.get('_csrf');
  return raw && typeof raw === 'object' ? (raw as Record<string, unknown>)._csrf : undefined;
}

export const signInPageLocation = (ctx: Context) =>
  `${CONSOLE_PREFIX}/sign-in?next=${encodeURIComponent(safeNext(ctx.method === 'GET' ? ctx.originalUrl : CONSOLE_HOME))}`;
