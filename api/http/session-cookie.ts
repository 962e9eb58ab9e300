// The console's cookies and request checks: the session cookie (`__Host-cardsvc_sid`, Secure, over https; else
// `cardsvc_sid`; HttpOnly, SameSite=Lax, Path=/), the sign-in's double-submit CSRF cookie, and the same-origin check
// every unsafe request passes (an `Origin` of this service, or `Sec-Fetch-Site: same-origin`).
import type { Context } from 'koa';
import { csrfInvalid } from '../../lib/errors.ts';
import { ABSOLUTE_MS } from '../../services/console/sessions.ts';

const SECURE_NAME = '__Host-cardsvc_sid';
const PLAIN_NAME = 'cardsvc_sid';
const CSRF_COOKIE = 'cardsvc_csrf';

export const sessionCookieName = (ctx: Context) => (ctx.secure ? SECURE_NAME : PLAIN_NAME);

const cookieOptions = (ctx: Context) => ({ httpOnly: true, sameSite: 'lax' as const, path: '/', secure: ctx.secure, overwrite: true });

export function readSessionCookie(ctx: Context): string | undefined {
  return ctx.cookies.get(sessionCookieName(ctx)) || undefined;
}

export function setSessionCookie(ctx: Context, sessionId: string): void {
  ctx.cookies.set(sessionCookieName(ctx), sessionId, { ...cookieOptions(ctx), maxAge: ABSOLUTE_MS });
}

export function clearSessionCookie(ctx: Context): void {
  ctx.cookies.set(sessionCookieName(ctx), '', { ...cookieOptions(ctx), maxAge: 0 });
}

/** The sign-in form's CSRF token: a random value in a cookie that the form (or header) must repeat. */
export function signInCsrf(ctx: Context): string {
  const existing = ctx.cookies.get(CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  ctx.cookies.set(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/v2/console', secure: ctx.secure, overwrite: true });
  return token;
}

export const signInCsrfCookie = (ctx: Context) => ctx.cookies.get(CSRF_COOKIE);

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const isUnsafe = (method: string) => UNSAFE.has(method.toUpperCase());

/** An unsafe request must come from this service's own pages (or a client that says it is same-origin). */
/**
 * A browser's request from another site: its Origin names neither this host nor PUBLIC_BASE_URL (a client that is
 * no browser sends none; a sandboxed document sends "null", treated as its own page's).
 */
export function isForeignOrigin(ctx: Context, publicBaseUrl: string): boolean {
  const origin = ctx.get('Origin');
  return Boolean(origin) && origin !== 'null' && origin !== new URL(publicBaseUrl).origin && origin !== `${ctx.protocol}://${ctx.host}`;
}

export function checkOrigin(ctx: Context, publicBaseUrl: string): void {
  const origin = ctx.get('Origin');
  const site = ctx.get('Sec-Fetch-Site');
  const own = new Set([`${ctx.protocol}://${ctx.host}`, new URL(publicBaseUrl).origin]);
  if (origin ? own.has(origin) : site === 'same-origin') return;
  throw csrfInvalid('This request did not come from the console (its Origin is missing or another site\'s)');
}
