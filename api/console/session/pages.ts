// The console's session pages under /v2/console/: the stylesheet and the account's accent stylesheet, sign-in, sign-out, the live/sandbox switch, step-up
// and home. Plain HTML over the same services as the console API, usable without JavaScript; the route kit
// (api/http/) sends a page without a session to sign-in (with `next`, a same-origin console path only) and checks
// every POST's form (same origin, the CSRF token); a POST answers 303.
import { ApiError, invalidParameter } from '../../../lib/errors.ts';
import { createHash } from 'node:crypto';
import { findSession, sessionAccount, setMode, signIn, signOut, stepUp, switchAccount } from '../../../services/console/sessions.ts';
import { accountAccentStylesheet } from '../../../services/console/theme.ts';
import { defineFile, definePage, definePublicPage, page, seeOther } from '../../http/route.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie, signInCsrf } from '../../http/session-cookie.ts';
import { CONSOLE_HOME, CONSOLE_PREFIX, safeNext } from '../../http/session.ts';
import { homePage } from '../home/pages.ts';
import { stylesheet } from '../kit/render.ts';
import { SwitchBody } from './schema.ts';

export const sessionPageRoutes = [
  defineFile({
    method: 'get',
    path: '/static/console.css',
    async handler(_input, { koa }) {
      koa.set('Cache-Control', 'public, max-age=300');
      return { type: 'text/css; charset=utf-8', body: stylesheet };
    },
  }),
  // The account's accent (its default brand's accent_color): a stylesheet of the session, as the CSP allows no inline
  // styles. Without a session there is no account to read: 401, and the console's own colours stay.
  defineFile({
    method: 'get',
    path: '/static/theme.css',
    async handler(_input, { services, koa }) {
      koa.set('Cache-Control', 'private, no-cache');
      const session = await findSession(services, readSessionCookie(koa));
      if (!session) return { status: 401, type: 'text/css; charset=utf-8', body: '/* sign in first */\n' };
      const css = await accountAccentStylesheet(services, (await sessionAccount(services, session)).id);
      const etag = `"${createHash('sha256').update(css).digest('base64url').slice(0, 22)}"`;
      koa.set('ETag', etag);
      koa.set('Vary', 'Cookie');
      if (koa.get('If-None-Match') === etag) return { status: 304, body: null };
      return { type: 'text/css; charset=utf-8', body: css };
    },
  }),
  definePublicPage({
    method: 'get',
    path: '/sign-in',
    async handler(_input, { koa }) {
      const notice = koa.query.done === 'password' ? 'Your password is changed: sign in with the new one.' : undefined;
      return page({ title: 'Sign in', view: 'sign-in', csrf: signInCsrf(koa), next: safeNext(koa.query.next), notice });
    },
  }),
  definePublicPage({
    method: 'post',
    path: '/sign-in',
    csrf: 'sign-in',
    async handler({ form }, { services, koa, requestId }) {
      const next = safeNext(form.next);
      try {
        const { sessionId } = await signIn(services, { email: form.email ?? '', password: form.password ?? '', clientIp: koa.ip, userAgent: koa.get('User-Agent'), requestId });
        setSessionCookie(koa, sessionId);
        return seeOther(next);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 401) throw err;
        return page({ title: 'Sign in', view: 'sign-in', csrf: signInCsrf(koa), next, email: form.email ?? '', error: err.message }, 401);
      }
    },
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/sign-out',
    audit: 'session.sign_out',
    async handler(_input, { services, session, koa }) {
      await signOut(services, session);
      clearSessionCookie(koa);
      return seeOther(`${CONSOLE_PREFIX}/sign-in`);
    },
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/mode',
    audit: 'session.mode',
    async handler({ form }, { services, session }) {
      if (form.mode !== 'live' && form.mode !== 'sandbox') throw invalidParameter('mode must be live or sandbox');
      await setMode(services, session, form.mode);
      return seeOther(CONSOLE_HOME);
    },
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/account/switch',
    audit: 'session.switch_account',
    body: SwitchBody,
    async handler({ body }, { services, session }) {
      await switchAccount(services, session, body.account_id);
      return seeOther(CONSOLE_HOME);
    },
  }),
  definePage({
    method: 'get',
    role: 'member',
    path: '/step-up',
    async handler(_input, { koa }) {
      return page({ title: 'Confirm your password', view: 'step-up', next: safeNext(koa.query.next) });
    },
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/step-up',
    audit: 'session.step_up',
    async handler({ form }, { services, session, koa, requestId }) {
      const next = safeNext(form.next);
      try {
        await stepUp(services, session, form.password ?? '', { ip: koa.ip, userAgent: koa.get('User-Agent') || null, requestId });
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 403) throw err;
        return page({ title: 'Confirm your password', view: 'step-up', next, error: err.message }, 403);
      }
      return seeOther(next);
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'analytics', level: 'view' },
    path: '/',
    async handler(_input, { services, account, role }) {
      return page(await homePage(services, account, role));
    },
  }),
];
