// A console client for tests: signs an owner in through the console API (the sign-in's CSRF cookie, then the
// session cookie) and sends requests with the session's cookie, the CSRF token and a same-origin Origin.
import { hashPassword } from '../../lib/passwords.ts';
import { TEST_SCRYPT_LOG2N } from './env.ts';
import type { Models } from '../../models/index.ts';
import { call, expectSuccess, newAccount, type Json, type TestAccount } from './api.ts';
import { insertEcard, insertWidget } from './catalog.ts';
import type { User } from '../../models/User.ts';
import { accountOwner } from '../../services/owners.ts';
import { addMember } from '../../services/team/members.ts';
import type { Role } from '../../services/team/roles.ts';

export interface ConsoleResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface ConsoleClient {
  /** The cookies this client holds (name → value). */
  cookies: Map<string, string>;
  csrf: string | undefined;
  /** `body` is sent as JSON; `raw` as it is (a FormData gets its multipart type from fetch, a string the type in `headers`). */
  call(method: string, path: string, options?: { body?: unknown; raw?: FormData | string; headers?: Record<string, string>; csrf?: string | null; origin?: string | null }): Promise<ConsoleResponse>;
  /** A request (`body` as JSON) that must succeed in the standard envelope (expectSuccess): its `data`. */
  ok<T = Json>(method: string, path: string, body?: unknown): Promise<T>;
  signIn(email: string, password: string): Promise<ConsoleResponse>;
}

/** The account's owner (a user, through `accounts.owner_user_id`); fails the test when there is none. */
export async function ownerUser(models: Models, accountId: number): Promise<User> {
  const owner = await accountOwner({ models }, accountId);
  if (!owner) throw new Error(`account ${accountId} has no owner`);
  return owner;
}

/** A password for the account's owner (accounts are made without one). */
export async function setOwnerPassword(models: Models, accountId: number, password: string): Promise<string> {
  const owner = await ownerUser(models, accountId);
  // The tests' cost (PASSWORD_SCRYPT_LOG2N=14 in the test environment), so a sign-in does not re-hash it.
  await owner.update({ password_hash: await hashPassword(password, TEST_SCRYPT_LOG2N) });
  return owner.email;
}

export function consoleClient(baseUrl: string): ConsoleClient {
  const cookies = new Map<string, string>();
  const client: ConsoleClient = {
    cookies,
    csrf: undefined,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (cookies.size) headers.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      if (options.origin !== null) headers.Origin = options.origin ?? baseUrl;
      const csrf = options.csrf === undefined ? client.csrf : options.csrf;
      if (csrf) headers['X-CSRF-Token'] = csrf;
      let body = options.raw;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['Content-Type'] = 'application/json';
      }
      const res = await fetch(`${baseUrl}/v2/console/api${path}`, { method, headers, ...(body === undefined ? {} : { body }), redirect: 'manual' });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at);
        const value = pair.slice(at + 1);
        if (value === '' || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    async ok<T = Json>(method: string, path: string, body?: unknown) {
      return expectSuccess(await client.call(method, path, body === undefined ? {} : { body })) as T;
    },
    async signIn(email, password) {
      const token = await client.call('GET', '/csrf');
      client.csrf = (token.body.data as { csrf_token: string }).csrf_token;
      const res = await client.call('POST', '/sign-in', { body: { email, password } });
      if (res.status === 200) client.csrf = (res.body.data as { csrf_token: string }).csrf_token;
      return res;
    },
  };
  return client;
}

/** A browser-like client of the console's pages: cookies kept, forms posted urlencoded (or multipart), redirects not followed. */
export function pageClient(base: string) {
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (/max-age=0/i.test(line) || pair.slice(at + 1) === '') cookies.delete(pair.slice(0, at));
      else cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    cookies,
    get: async (path: string) => keep(await fetch(`${base}${path}`, { headers: { Cookie: cookie() }, redirect: 'manual' })),
    post: async (path: string, form: Record<string, string>, origin: string | null = base) =>
      keep(
        await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { Cookie: cookie(), 'Content-Type': 'application/x-www-form-urlencoded', ...(origin ? { Origin: origin } : {}) },
          body: new URLSearchParams(form).toString(),
          redirect: 'manual',
        }),
      ),
    /** A multipart form (fetch sets the boundary). */
    postMultipart: async (path: string, form: FormData, origin: string | null = base) =>
      keep(await fetch(`${base}${path}`, { method: 'POST', headers: { Cookie: cookie(), ...(origin ? { Origin: origin } : {}) }, body: form, redirect: 'manual' })),
  };
}

/** A hidden field's value in a page (the `_csrf` token, `next`). */
export const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

/** A page client signed in by the sign-in form; `csrf` is the session's token from the home page. */
export async function signedInPages(base: string, email: string, password: string): Promise<{ browser: ReturnType<typeof pageClient>; csrf: string }> {
  const browser = pageClient(base);
  const form = await (await browser.get('/v2/console/sign-in')).text();
  const res = await browser.post('/v2/console/sign-in', { _csrf: hidden(form, '_csrf'), next: '/v2/console/', email, password });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  const home = await (await browser.get('/v2/console/')).text();
  return { browser, csrf: hidden(home, '_csrf') };
}

/** The password the console tests give owners. */
export const OWNER_PASSWORD = 'correct horse battery';

type Plan = 'free' | 'pro' | 'enterprise';
type Stack = { url: string; models: Models };

/** A new account whose owner is signed in to the console's pages: a browser-like client and the session's CSRF token. */
export async function ownerOnPages(stack: Stack, plan: Plan = 'free'): Promise<{ account: TestAccount; browser: ReturnType<typeof pageClient>; csrf: string }> {
  const account = await newAccount(stack.models, plan);
  const email = await setOwnerPassword(stack.models, account.accountId, OWNER_PASSWORD);
  return { account, ...(await signedInPages(stack.url, email, OWNER_PASSWORD)) };
}

/**
 * The tests' one console session: the owner of `account` (else of a new account of `plan`) with a password, signed in
 * to the console API of the stack (or of `url`, another app on its database); the sign-in must succeed.
 */
export async function signedInConsole(stack: Stack, options: { account?: TestAccount; plan?: Plan; url?: string } = {}): Promise<{ account: TestAccount; client: ConsoleClient }> {
  const account = options.account ?? (await newAccount(stack.models, options.plan));
  const email = await setOwnerPassword(stack.models, account.accountId, OWNER_PASSWORD);
  const client = consoleClient(options.url ?? stack.url);
  expectSuccess(await client.signIn(email, OWNER_PASSWORD));
  return { account, client };
}

/** A real email send of the account's sandbox through the key API (a new widget and eCard): its mail_sink row. */
export const sandboxEmail = (stack: Stack, account: TestAccount, recipientEmail: string) => keptEmail(stack, account, recipientEmail, 'sandbox');

/**
 * A real email send through the key API (a new widget and eCard) of the account's sandbox, or of the live account on a
 * stack whose transport is the sink (MAIL_TRANSPORT=sink): its mail_sink row.
 */
export async function keptEmail(stack: Stack, account: TestAccount, recipientEmail: string, mode: 'sandbox' | 'live') {
  const accountId = mode === 'sandbox' ? account.sandboxAccountId : account.accountId;
  const widget = await insertWidget(stack.models, accountId);
  const ecard = await insertEcard(stack.models, accountId, widget.id);
  const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
    key: mode === 'sandbox' ? account.sandboxKey : account.liveKey,
    body: { ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail },
  });
  if (res.status !== 200) throw new Error(`${mode} send answered ${res.status}: ${JSON.stringify(res.body)}`);
  return stack.models.MailSinkMessage.findOne({ where: { account_id: accountId, recipient: recipientEmail }, rejectOnEmpty: true });
}

let members = 0;

/**
 * A person with `role` in `account` (a user with the tests' password and a membership, as an accepted invitation
 * leaves them), signed in to the console API and to its pages.
 */
export async function signedInMember(stack: Stack, account: TestAccount, role: Role) {
  members += 1;
  const email = `${role}-${process.pid}-${Date.now()}-${members}@example.com`;
  const user = await stack.models.User.create({ email, name: `A ${role}`, password_hash: await hashPassword(OWNER_PASSWORD, TEST_SCRYPT_LOG2N) });
  await addMember({ models: stack.models }, { accountId: account.accountId, userId: user.id, role });
  const client = consoleClient(stack.url);
  expectSuccess(await client.signIn(email, OWNER_PASSWORD));
  return { user, client, ...(await signedInPages(stack.url, email, OWNER_PASSWORD)) };
}
