// Console sessions: sign-in with a user's password (scrypt at PASSWORD_SCRYPT_LOG2N; throttled in
// ./throttle.ts; an unknown email costs the same time as a wrong password) into one of their accounts, a 256-bit
// session id of which only the SHA-256 is stored, idle (30 min) and absolute (12 h) timeouts, step-up (the password
// again, good for 10 minutes), the live/sandbox switch, the switch between a person's accounts, and a password change that ends every session of the user.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { invalidCredentials, invalidPassword, noAccount, notFound, passwordTooShort, sessionRequired, stepUpRequired } from '../../lib/errors.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/passwords.ts';
import type { Account } from '../../models/Account.ts';
import type { ConsoleMode, ConsoleSession } from '../../models/ConsoleSession.ts';
import type { User } from '../../models/User.ts';
import type { ServiceContext } from '../context.ts';
import { queueNotice } from '../owner-mail.ts';
import { auditSignIn, auditStepUpFailed } from './sign-in-audit.ts';
import { attemptSucceeded, takeAttempt } from './throttle.ts';

export const IDLE_MS = 30 * 60_000;
export const ABSOLUTE_MS = 12 * 3_600_000;
export const STEP_UP_MS = 10 * 60_000;
export const MIN_PASSWORD_LENGTH = 10;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
// Verified instead of a real hash when the email is unknown, so both answers take as long.
let dummyHash: Promise<string> | undefined;

/** Where a console request came from, for the audit log. */
export interface ConsoleOrigin {
  ip: string;
  userAgent?: string | null;
  requestId?: string | null;
}

export interface SignedIn {
  /** The session id for the cookie (never stored). */
  sessionId: string;
  session: ConsoleSession;
  user: User;
}

export async function signIn(ctx: Pick<ServiceContext, 'models' | 'now' | 'config'>, input: { email: string; password: string; clientIp: string; userAgent?: string; requestId?: string }): Promise<SignedIn> {
  const email = input.email.trim().toLowerCase();
  const attempt = await takeAttempt(ctx, email, input.clientIp);
  const user = await ctx.models.User.findOne({ where: { email } });
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'), ctx.config.passwordScryptLog2N);
  const valid = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash));
  const origin = { surface: 'console', ip: input.clientIp, userAgent: input.userAgent ?? null, requestId: input.requestId ?? null } as const;
  if (!user || !user.password_hash || !valid) {
    // A known person's accounts learn of the failure; an unknown address has no account to tell.
    if (user) await auditSignIn(ctx, user, false, origin);
    throw invalidCredentials('The email or the password is wrong');
  }
  await attemptSucceeded(ctx, attempt);
  await auditSignIn(ctx, user, true, origin);
  const accountId = await accountToOpen(ctx, user);
  const now = ctx.now();
  // A hash made at an older cost is made anew while the password is at hand.
  const rehashed = needsRehash(user.password_hash, ctx.config.passwordScryptLog2N) ? { password_hash: await hashPassword(input.password, ctx.config.passwordScryptLog2N) } : {};
  await user.update({ ...rehashed, last_sign_in_at: now });
  return { ...(await openSession(ctx, { user, accountId, now, ip: input.clientIp, userAgent: input.userAgent ?? null })), user };
}

/** The live account a sign-in opens: the user's last one while they are still a member there, else their oldest membership's. */
async function accountToOpen(ctx: Pick<ServiceContext, 'models'>, user: User): Promise<number> {
  const memberships = await ctx.models.Membership.findAll({ where: { user_id: user.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const first = memberships[0];
  if (!first) throw noAccount('You are not a member of any account');
  return memberships.find((m) => m.account_id === user.last_account_id)?.account_id ?? first.account_id;
}

/** A new session (a new id at every sign-in) of `user` on the live account `accountId`. */
async function openSession(
  ctx: Pick<ServiceContext, 'models'>,
  opening: { user: User; accountId: number; now: Date; ip: string; userAgent: string | null },
  transaction?: Transaction,
): Promise<{ sessionId: string; session: ConsoleSession }> {
  const { models } = ctx;
  const { user, accountId, now } = opening;
  const sessionId = randomBytes(32).toString('base64url');
  const session = await models.ConsoleSession.create(
    {
      id_hash: sha256(sessionId),
      public_id: randomBytes(12).toString('base64url'),
      owner_id: user.id,
      account_id: accountId,
      csrf_secret: randomBytes(32).toString('hex'),
      created_at: now,
      last_seen_at: now,
      mode: 'live',
      ip: opening.ip.slice(0, 64),
      user_agent: opening.userAgent?.slice(0, 255) || null,
    },
    transaction ? { transaction } : {},
  );
  return { sessionId, session };
}

/** The live session behind a cookie's id, or null (unknown, idle past 30 min, older than 12 h: then removed). */
export async function findSession(ctx: Pick<ServiceContext, 'models' | 'now'>, sessionId: string | undefined): Promise<ConsoleSession | null> {
  if (!sessionId || sessionId.length > 100) return null;
  const session = await ctx.models.ConsoleSession.findOne({ where: { id_hash: sha256(sessionId) } });
  if (!session) return null;
  const now = ctx.now().getTime();
  if (now - session.last_seen_at.getTime() > IDLE_MS || now - session.created_at.getTime() > ABSOLUTE_MS) {
    await session.destroy();
    return null;
  }
  // Touched at most once a minute: a page with several requests writes once.
  if (now - session.last_seen_at.getTime() > 60_000) await session.update({ last_seen_at: ctx.now() });
  return session;
}

export async function signOut(ctx: Pick<ServiceContext, 'models'>, session: ConsoleSession): Promise<void> {
  const { models } = ctx;
  await models.ConsoleSession.destroy({ where: { id: session.id } });
}

/** The account the console works on: the session's live account, or its sandbox twin. */
export async function sessionAccount(ctx: Pick<ServiceContext, 'models'>, session: ConsoleSession): Promise<Account> {
  const { models } = ctx;
  const account =
    session.mode === 'sandbox'
      ? await models.Account.findOne({ where: { live_account_id: session.account_id, mode: 'sandbox' } })
      : await models.Account.findByPk(session.account_id);
  if (!account) throw sessionRequired('The session\'s account no longer exists; sign in again');
  return account;
}

export async function setMode(ctx: Pick<ServiceContext, 'models'>, session: ConsoleSession, mode: ConsoleMode): Promise<ConsoleSession> {
  return session.update({ mode });
}

/**
 * Moves the session to another live account of its person (in live mode; a step-up stays hers), and makes it the
 * one the next sign-in opens. An account they are not a member of is 404, as any other account's id.
 */
export async function switchAccount(ctx: Pick<ServiceContext, 'models'>, session: ConsoleSession, accountId: number): Promise<ConsoleSession> {
  const { models } = ctx;
  // `owner_id` holds the user's id (models/ConsoleSession.ts); memberships name live accounts only.
  const membership = await models.Membership.findOne({ where: { user_id: session.owner_id, account_id: accountId }, attributes: ['id'] });
  if (!membership) throw notFound(`You are not a member of an account with the id ${accountId}`);
  await models.User.update({ last_account_id: accountId }, { where: { id: session.owner_id } });
  return session.update({ account_id: accountId, mode: 'live' });
}

/** The session's user (`owner_id` holds a user's id). */
async function userOf(ctx: Pick<ServiceContext, 'models'>, session: ConsoleSession): Promise<User> {
  const { models } = ctx;
  const user = await models.User.findByPk(session.owner_id);
  if (!user) throw sessionRequired('The session\'s user no longer exists; sign in again');
  return user;
}

/** The password again: sensitive actions are allowed for the next 10 minutes. */
export async function stepUp(ctx: ServiceContext, session: ConsoleSession, password: string, origin: ConsoleOrigin): Promise<ConsoleSession> {
  const user = await userOf(ctx, session);
  await checkPassword(ctx, { user, session, origin }, password, 'The password is wrong');
  return session.update({ step_up_at: ctx.now() });
}

/**
 * The user's password, counted by the same throttle as sign-ins (403 when wrong, 429 when throttled); a wrong one is
 * written to the audit log of the account the session is on.
 */
async function checkPassword(ctx: ServiceContext, by: { user: User; session: ConsoleSession; origin: ConsoleOrigin }, password: string, wrong: string): Promise<void> {
  const attempt = await takeAttempt(ctx, by.user.email, by.origin.ip);
  if (!(await verifyPassword(password, by.user.password_hash))) {
    await auditStepUpFailed(ctx, by.user, by.session.account_id, { surface: 'console', ...by.origin });
    throw invalidPassword(wrong);
  }
  await attemptSucceeded(ctx, attempt);
}

/** Refuses (403 step_up_required) unless the password was given again in the last 10 minutes. */
export function requireStepUp(ctx: Pick<ServiceContext, 'now'>, session: ConsoleSession, action: string): void {
  if (!session.step_up_at || ctx.now().getTime() - session.step_up_at.getTime() > STEP_UP_MS) {
    throw stepUpRequired(`${action} needs your password again (POST /v2/console/api/step-up); it is good for 10 minutes`);
  }
}

/** Refuses (422 password_too_short) a password shorter than the console's minimum: the console's forms and `cardsvc`. */
export function assertPasswordLength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw passwordTooShort(`A password needs at least ${MIN_PASSWORD_LENGTH} characters${password === '' ? ' (none was given)' : ''}`);
  }
}

/** Sets a new password (the current one checked when given); every session of the user ends, and they are emailed. */
export async function setPassword(ctx: Pick<ServiceContext, 'models' | 'now'>, user: User, password: string, log2N: number): Promise<void> {
  const { models } = ctx;
  assertPasswordLength(password);
  const hash = await hashPassword(password, log2N);
  await models.sequelize.transaction(async (transaction) => {
    await user.update({ password_hash: hash }, { transaction });
    await models.ConsoleSession.destroy({ where: { owner_id: user.id }, transaction });
    // A person's own notice, of no one account (the live transport sends it).
    await queueNotice(ctx, { accountId: null, recipient: user.email }, PASSWORD_CHANGED, ctx.now(), transaction);
  });
}

const PASSWORD_CHANGED = {
  kind: 'password_changed',
  subject: 'Your card service password was changed',
  paragraphs: ['The password you sign in to the card service console with was just changed, and every session of yours was ended.', 'If you did not change it, reset it now or ask your account’s owner.'],
};

export async function changePassword(ctx: ServiceContext, session: ConsoleSession, input: { current: string; next: string; clientIp: string }): Promise<void> {
  const user = await userOf(ctx, session);
  await checkPassword(ctx, { user, session, origin: { ip: input.clientIp } }, input.current, 'The current password is wrong');
  await setPassword(ctx, user, input.next, ctx.config.passwordScryptLog2N);
}

/** The session's CSRF token: an HMAC under its own secret (nothing more to store). */
export const csrfTokenOf = (session: Pick<ConsoleSession, 'csrf_secret'>) => createHmac('sha256', session.csrf_secret).update('cardsvc console csrf').digest('base64url');

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
