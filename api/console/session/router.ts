// The console's session endpoints: the sign-in's CSRF token, sign-in (a new session id, the cookie), sign-out, who
// is signed in, the live/sandbox switch, step-up, and a password change (which ends every session of the owner).
import type { ConsoleSession } from '../../../models/ConsoleSession.ts';
import { ABSOLUTE_MS, changePassword, csrfTokenOf, setMode, signIn, signOut, STEP_UP_MS, stepUp } from '../../../services/console/sessions.ts';
import { definePublicRoute, defineSessionRoute, type Me as SignedIn } from '../../http/route.ts';
import { clearSessionCookie, setSessionCookie, signInCsrf } from '../../http/session-cookie.ts';
import { readMe } from '../../http/session.ts';
import { CsrfAnswer, Done, Me, ModeBody, PasswordBody, SignInBody, StepUpBody } from './schema.ts';

function meOf({ user, live, account }: SignedIn, session: ConsoleSession) {
  return {
    // The signed-in user's email (only owners sign in until invitations land).
    owner_email: user.email,
    account_id: live.id,
    account_name: live.name,
    plan: live.plan,
    mode: session.mode,
    current_account_id: account.id,
    csrf_token: csrfTokenOf(session),
    step_up_until: session.step_up_at ? new Date(session.step_up_at.getTime() + STEP_UP_MS).toISOString() : null,
    session_expires_at: new Date(session.created_at.getTime() + ABSOLUTE_MS).toISOString(),
  };
}

export const consoleSessionRoutes = [
  definePublicRoute({
    method: 'get',
    path: '/csrf',
    summary: 'The sign-in CSRF token (also set as a cookie the sign-in must repeat)',
    response: CsrfAnswer,
    async handler(_input, { koa }) {
      return { csrf_token: signInCsrf(koa) };
    },
  }),
  definePublicRoute({
    method: 'post',
    path: '/sign-in',
    summary: 'Signs the owner in: a new session and its cookie',
    csrf: 'sign-in',
    body: SignInBody,
    response: Me,
    async handler({ body }, { services, koa }) {
      const { sessionId, session } = await signIn(services, { ...body, clientIp: koa.ip });
      setSessionCookie(koa, sessionId);
      return meOf(await readMe(services, session), session);
    },
  }),
  defineSessionRoute({
    method: 'post',
    path: '/sign-out',
    summary: 'Ends this session',
    response: Done,
    async handler(_input, { services, session, koa }) {
      await signOut(services, session);
      clearSessionCookie(koa);
      return { ok: true as const };
    },
  }),
  defineSessionRoute({
    method: 'get',
    path: '/me',
    summary: 'Who is signed in, on which account, and the CSRF token',
    response: Me,
    async handler(_input, { session, me }) {
      return meOf(await me(), session);
    },
  }),
  defineSessionRoute({
    method: 'post',
    path: '/mode',
    summary: 'Switches the console between the live account and its sandbox',
    body: ModeBody,
    response: Me,
    async handler({ body }, { services, session, me }) {
      const changed = await setMode(services, session, body.mode);
      return meOf(await me(changed), changed);
    },
  }),
  defineSessionRoute({
    method: 'post',
    path: '/step-up',
    summary: 'The password again: sensitive actions are allowed for 10 minutes',
    body: StepUpBody,
    response: Me,
    async handler({ body }, { services, session, me, koa }) {
      const stepped = await stepUp(services, session, body.password, koa.ip);
      return meOf(await me(), stepped);
    },
  }),
  defineSessionRoute({
    method: 'post',
    path: '/password',
    summary: 'Changes the password; every session of the owner ends (sign in again)',
    body: PasswordBody,
    response: Done,
    async handler({ body }, { services, session, koa }) {
      await changePassword(services, session, { current: body.current_password, next: body.new_password, clientIp: koa.ip });
      clearSessionCookie(koa);
      return { ok: true as const };
    },
  }),
];
