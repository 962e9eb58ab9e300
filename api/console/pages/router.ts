// The console's pages under /v2/console/: plain HTML over the same services as the console API, usable without
// JavaScript. No session → 303 to the sign-in page (with `next`, a same-origin console path only); every POST
// is a urlencoded form with the CSRF token and answers 303.
import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError, csrfInvalid, invalidParameter } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import type { ConsoleSession } from '../../../models/ConsoleSession.ts';
import { csrfTokenOf, findSession, sameSecret, sessionAccount, setMode, signIn, signOut, STEP_UP_MS, stepUp } from '../../../services/console/sessions.ts';
import { readFormBody } from '../../body.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { checkOrigin, clearSessionCookie, readSessionCookie, setSessionCookie, signInCsrf, signInCsrfCookie } from '../session-cookie.ts';
import { renderPage, stylesheet } from './render.ts';

export const CONSOLE_PREFIX = '/v2/console';
const HOME = `${CONSOLE_PREFIX}/`;

/** Only a console path of this service: never another origin (`//evil`, `/\\evil`, `https:`). */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith(`${CONSOLE_PREFIX}/`) || next.includes('\\') || next.includes('//') || [...next].some((c) => c.charCodeAt(0) < 32)) return HOME;
  return next;
}

export interface PageSession {
  session: ConsoleSession;
  account: Account;
  me: { owner_email: string; account_name: string; plan: string };
  csrf: string;
  sandbox: boolean;
}

/** The signed-in owner, or a 303 to the sign-in page (null: the answer is set). */
export async function pageSession(services: ApiServices, ctx: Context): Promise<PageSession | null> {
  const session = await findSession(services, readSessionCookie(ctx));
  if (!session) {
    seeOther(ctx, `${CONSOLE_PREFIX}/sign-in?next=${encodeURIComponent(safeNext(ctx.method === 'GET' ? ctx.originalUrl : HOME))}`);
    return null;
  }
  const [owner, account] = await Promise.all([services.models.Owner.findByPk(session.owner_id, { rejectOnEmpty: true }), sessionAccount(services.models, session)]);
  // The header names the live account: the same row in live mode, one more read in sandbox mode.
  const live = session.mode === 'sandbox' ? await services.models.Account.findByPk(session.account_id, { rejectOnEmpty: true }) : account;
  return { session, account, me: { owner_email: owner.email, account_name: live.name, plan: live.plan }, csrf: csrfTokenOf(session), sandbox: session.mode === 'sandbox' };
}

/** A form post of a signed-in page: same origin and the session's CSRF token, or 403. */
export async function pageForm(services: ApiServices, ctx: Context, page: PageSession): Promise<Record<string, string>> {
  checkOrigin(ctx, services.config.publicBaseUrl);
  const form = await readFormBody(ctx, services.config.bodyLimitBytes);
  checkFormCsrf(form._csrf, page);
  return form;
}

/** A form's `_csrf` field against the session's token (urlencoded forms and the code upload alike), else 403. */
export function checkFormCsrf(given: unknown, page: PageSession): void {
  if (!sameSecret(typeof given === 'string' ? given : undefined, page.csrf)) throw csrfInvalid('The form is out of date (its CSRF token is missing or wrong): reload the page and try again');
}

/**
 * Sensitive pages and actions: true when the password was given again in the last 10 minutes, else a 303 to the
 * step-up page, which comes back to `back` (a console GET path) afterwards.
 */
export function pageStepUp(services: ApiServices, ctx: Context, page: PageSession, back: string): boolean {
  const at = page.session.step_up_at;
  if (at && services.now().getTime() - at.getTime() <= STEP_UP_MS) return true;
  seeOther(ctx, `${CONSOLE_PREFIX}/step-up?next=${encodeURIComponent(safeNext(back))}`);
  return false;
}

/** Page handlers' failures as an HTML page with the error's status (the JSON envelope is for the API). */
export function htmlErrors(handler: (ctx: Context) => Promise<void>) {
  return async (ctx: Context) => {
    try {
      await handler(ctx);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      for (const [name, value] of Object.entries(err.headers ?? {})) ctx.set(name, value);
      renderPage(ctx, { title: 'Something went wrong', view: 'error', message: err.message }, err.status);
    }
  };
}

/** A GET form's query: a blank field means "any", so it is left out before the schema reads the rest. */
export function filledQuery(query: Context['query']): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
}

/** The answer to a form's POST (and to a page that needs another first): 303 See Other. */
export function seeOther(ctx: Context, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}

/** A signed-in page's handler: the session (or a 303 to sign-in, and nothing else) and HTML errors. */
export function signedIn(services: ApiServices, handler: (ctx: Context, page: PageSession) => Promise<void>) {
  return htmlErrors(async (ctx) => {
    const page = await pageSession(services, ctx);
    if (page) await handler(ctx, page);
  });
}

export function consolePagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: CONSOLE_PREFIX });
  router.get('/static/console.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = stylesheet;
  });
  router.get(
    '/sign-in',
    htmlErrors(async (ctx) => {
      const notice = ctx.query.done === 'password' ? 'Your password is changed: sign in with the new one.' : undefined;
      renderPage(ctx, { title: 'Sign in', view: 'sign-in', csrf: signInCsrf(ctx), next: safeNext(ctx.query.next), notice });
    }),
  );
  router.post(
    '/sign-in',
    htmlErrors(async (ctx) => {
      checkOrigin(ctx, services.config.publicBaseUrl);
      const form = await readFormBody(ctx, services.config.bodyLimitBytes);
      const next = safeNext(form.next);
      if (!sameSecret(form._csrf, signInCsrfCookie(ctx) ?? '\u0000')) throw csrfInvalid('The sign-in form is out of date: reload it and try again');
      try {
        const { sessionId } = await signIn(services, { email: form.email ?? '', password: form.password ?? '', clientIp: ctx.ip });
        setSessionCookie(ctx, sessionId);
        seeOther(ctx, next);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 401) throw err;
        renderPage(ctx, { title: 'Sign in', view: 'sign-in', csrf: signInCsrf(ctx), next, email: form.email ?? '', error: err.message }, 401);
      }
    }),
  );
  router.post(
    '/sign-out',
    signedIn(services, async (ctx, page) => {
      await pageForm(services, ctx, page);
      await signOut(services.models, page.session);
      clearSessionCookie(ctx);
      seeOther(ctx, `${CONSOLE_PREFIX}/sign-in`);
    }),
  );
  router.post(
    '/mode',
    signedIn(services, async (ctx, page) => {
      const form = await pageForm(services, ctx, page);
      if (form.mode !== 'live' && form.mode !== 'sandbox') throw invalidParameter('mode must be live or sandbox');
      await setMode(services.models, page.session, form.mode);
      seeOther(ctx, HOME);
    }),
  );
  router.get(
    '/step-up',
    signedIn(services, async (ctx, page) => {
      renderPage(ctx, { title: 'Confirm your password', view: 'step-up', ...page, next: safeNext(ctx.query.next) });
    }),
  );
  router.post(
    '/step-up',
    signedIn(services, async (ctx, page) => {
      const form = await pageForm(services, ctx, page);
      const next = safeNext(form.next);
      try {
        await stepUp(services, page.session, form.password ?? '', ctx.ip);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 403) throw err;
        return renderPage(ctx, { title: 'Confirm your password', view: 'step-up', ...page, next, error: err.message }, 403);
      }
      seeOther(ctx, next);
    }),
  );
  router.get(
    '/',
    signedIn(services, async (ctx, page) => {
      renderPage(ctx, { title: 'Console', view: 'home', ...page });
    }),
  );
  return router;
}
