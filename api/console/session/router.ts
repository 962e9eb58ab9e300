// The console's session endpoints: the sign-in's CSRF token, sign-in (a new session id, the cookie), sign-out, who
// is signed in, the live/sandbox switch, step-up, and a password change (which ends every session of the owner).
import { sessionRequired } from '../../../lib/errors.ts';
import type { ConsoleSession } from '../../../models/ConsoleSession.ts';
import { memberAccounts } from '../../../services/team/members.ts';
import type { ApiServices } from '../../context.ts';
import { ABSOLUTE_MS, changePassword, csrfTokenOf, setMode, signIn, signOut, STEP_UP_MS, stepUp, switchAccount } from '../../../services/console/sessions.ts';
import { definePublicRoute, defineSessionRoute, type Me as SignedIn } from '../../http/route.ts';
import { clearSessionCookie, setSessionCookie, signInCsrf } from '../../http/session-cookie.ts';
import { readMe } from '../../http/session.ts';
import { CsrfAnswer, Done, Me, ModeBody, PasswordBody, SignInBody, StepUpBody, SwitchBody } from './schema.ts';

/** Me as the API answers it: who is signed in, their role here and every account they may switch to. */
async function meOf(services: ApiServices, { user, live, account }: SignedIn, session: ConsoleSession) {
  const accounts = await memberAccounts(services, user.id);
  const role = accounts.find((a) => a.account_id === live.id)?.role;
  // A session's person is a member of its account (the kit checked); a removal between the reads is a 401.
  if (!role) throw sessionRequired('Sign in to the console first (POST /v2/console/api/sign-in)');
  return {
    // The signed-in person's email (kept beside `user` for clients written before teams).
    owner_email: user.email,
    user: { id: user.id, email: user.email, name: user.name, totp_enabled: user.totp_secret !== null },
    role,
    accounts,
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
    async handler({ body }, { services, koa, requestId }) {
      const { sessionId, session } = await signIn(services, { ...body, clientIp: koa.ip, userAgent: koa.get('User-Agent'), requestId });
      setSessionCookie(koa, sessionId);
      return meOf(services, await readMe(services, session), session);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/sign-out',
    audit: 'session.sign_out',
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
    role: 'member',
    path: '/me',
    summary: 'Who is signed in, on which account, and the CSRF token',
    response: Me,
    async handler(_input, { services, session, me }) {
      return meOf(services, await me(), session);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/mode',
    audit: 'session.mode',
    summary: 'Switches the console between the live account and its sandbox',
    body: ModeBody,
    response: Me,
    async handler({ body }, { services, session, me }) {
      const changed = await setMode(services, session, body.mode);
      return meOf(services, await me(changed), changed);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/account/switch',
    audit: 'session.switch_account',
    summary: 'Opens another account you are a member of, in live mode (a step-up stays); the next sign-in opens it too',
    body: SwitchBody,
    response: Me,
    async handler({ body }, { services, session, me }) {
      const moved = await switchAccount(services, session, body.account_id);
      return meOf(services, await me(moved), moved);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/step-up',
    audit: 'session.step_up',
    summary: 'The password again: sensitive actions are allowed for 10 minutes',
    body: StepUpBody,
    response: Me,
    async handler({ body }, { services, session, me, koa, requestId }) {
      const stepped = await stepUp(services, session, body.password, { ip: koa.ip, userAgent: koa.get('User-Agent') || null, requestId });
      return meOf(services, await me(), stepped);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/password',
    audit: 'user.password_change',
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
