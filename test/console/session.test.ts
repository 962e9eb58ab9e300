import { expect } from 'chai';
import { call, expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { consoleClient, setOwnerPassword } from '../helpers/console.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';

describe('console: sessions', function () {
  this.timeout(30_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  it('signs in with a CSRF cookie, answers me, switches to the sandbox, signs out', async () => {
    const account = await newAccount(stack.models);
    const email = await setOwnerPassword(stack.models, account.accountId, 'correct horse battery');
    const client = consoleClient(stack.url);
    const me = expectSuccess(await client.signIn(email, 'correct horse battery')) as Record<string, unknown>;
    expect(me).to.include({ owner_email: email, account_id: account.accountId, mode: 'live', current_account_id: account.accountId });
    expect([...client.cookies.keys()]).to.include('cardsvc_sid');
    const sandbox = expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } })) as Record<string, unknown>;
    expect(sandbox.current_account_id).to.equal(account.sandboxAccountId);
    expectSuccess(await client.call('POST', '/sign-out'));
    expectFailure(await client.call('GET', '/me'), 401, 'session_required');
  });

  it('GET / (the server’s root) leads to the console: 303 to /v2/console, then the sign-in page for a person signed out', async () => {
    const root = await fetch(`${stack.url}/`, { redirect: 'manual' });
    expect(root.status).to.equal(303);
    expect(root.headers.get('location')).to.equal('/v2/console');
    const followed = await fetch(`${stack.url}/`);
    expect(followed.status).to.equal(200);
    expect(new URL(followed.url).pathname).to.match(/^\/v2\/console\/sign-in/);
    expect(await followed.text()).to.match(/<form[^>]*method="post"/i);
  });

  it('refuses a POST without the CSRF token or from another origin; a Bearer key is not a session', async () => {
    const account = await newAccount(stack.models);
    const email = await setOwnerPassword(stack.models, account.accountId, 'correct horse battery');
    const client = consoleClient(stack.url);
    expectSuccess(await client.signIn(email, 'correct horse battery'));
    expectFailure(await client.call('POST', '/mode', { body: { mode: 'sandbox' }, csrf: null }), 403, 'csrf_invalid');
    expectFailure(await client.call('POST', '/mode', { body: { mode: 'sandbox' }, origin: 'https://evil.example' }), 403, 'csrf_invalid');
    expectFailure(await call(stack.url, 'GET', '/v2/console/api/me', { key: account.liveKey }), 401, 'session_required');
  });
});

describe('console: sign-in, timeouts, step-up and passwords', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  async function owner(password = 'correct horse battery') {
    const account = await newAccount(stack.models);
    return { account, email: await setOwnerPassword(stack.models, account.accountId, password), password };
  }

  it('sets HttpOnly, SameSite=Lax, Path=/ cookies; over https behind TRUST_PROXY the cookie is __Host- and Secure', async () => {
    const { email, password } = await owner();
    const plain = consoleClient(stack.url);
    const token = await plain.call('GET', '/csrf');
    const res = await plain.call('POST', '/sign-in', { body: { email, password }, csrf: (token.body.data as { csrf_token: string }).csrf_token });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cardsvc_sid='))!;
    expect(cookie).to.match(/httponly/i).and.match(/samesite=lax/i).and.match(/path=\//i).and.not.match(/secure/i);
    const proxied = await extraApp({ env: { TRUST_PROXY: 'true' } });
    const secure = consoleClient(proxied.url);
    const https = { 'X-Forwarded-Proto': 'https' };
    const csrf = ((await secure.call('GET', '/csrf', { headers: https })).body.data as { csrf_token: string }).csrf_token;
    const signed = await secure.call('POST', '/sign-in', { body: { email, password }, csrf, headers: https, origin: proxied.url.replace('http:', 'https:') });
    expect(signed.status, JSON.stringify(signed.body)).to.equal(200);
    const hostCookie = signed.headers.getSetCookie().find((c) => c.startsWith('__Host-cardsvc_sid='));
    expect(hostCookie).to.match(/secure/i).and.match(/httponly/i).and.match(/path=\//i);
  });

  it('a new session id at every sign-in; a wrong password or unknown email is 401; sign-in needs its CSRF cookie', async () => {
    const { email, password } = await owner();
    const first = consoleClient(stack.url);
    const second = consoleClient(stack.url);
    expectSuccess(await first.signIn(email, password));
    expectSuccess(await second.signIn(email, password));
    expect(first.cookies.get('cardsvc_sid')).to.be.a('string').and.not.equal(second.cookies.get('cardsvc_sid'));
    expect(await stack.models.ConsoleSession.count({ where: { id_hash: first.cookies.get('cardsvc_sid')! } })).to.equal(0);
    expectFailure(await consoleClient(stack.url).signIn(email, 'wrong password!'), 401, 'invalid_credentials');
    expectFailure(await consoleClient(stack.url).signIn(`nobody-${Date.now()}@example.com`, password), 401, 'invalid_credentials');
    const bare = consoleClient(stack.url);
    expectFailure(await bare.call('POST', '/sign-in', { body: { email, password } }), 403, 'csrf_invalid');
    expectFailure(await bare.call('POST', '/sign-in', { body: { email: 5 } }), 403, 'csrf_invalid');
  });

  it('five failures for an email in 15 minutes → 429 with Retry-After, even with the right password', async () => {
    const { email, password } = await owner();
    for (let i = 0; i < 5; i++) expectFailure(await consoleClient(stack.url).signIn(email, `wrong-${i}-password`), 401, 'invalid_credentials');
    const res = await consoleClient(stack.url).signIn(email, password);
    expectFailure(res, 429, 'sign_in_throttled');
    expect(Number(res.headers.get('retry-after'))).to.be.within(1, 900);
  });

  it('an unknown email costs about as long as a wrong password (a hash is verified either way)', async () => {
    const { email } = await owner();
    const time = async (address: string) => {
      const started = performance.now();
      await consoleClient(stack.url).signIn(address, 'not the password');
      return performance.now() - started;
    };
    await time(`warm-${Date.now()}@example.com`);
    const known = await time(email);
    const unknown = await time(`nobody-${Date.now()}@example.com`);
    expect(unknown).to.be.greaterThan(known * 0.3);
  });

  it('idle (30 min) and absolute (12 h) timeouts end a session (clock injected)', async () => {
    const { email, password } = await owner();
    let now = new Date('2030-01-01T08:00:00Z');
    const app = await extraApp({ now: () => now });
    const client = consoleClient(app.url);
    expectSuccess(await client.signIn(email, password));
    now = new Date(now.getTime() + 29 * 60_000);
    expectSuccess(await client.call('GET', '/me'));
    now = new Date(now.getTime() + 31 * 60_000);
    expectFailure(await client.call('GET', '/me'), 401, 'session_required');
    // Kept busy every 25 minutes, the session still ends 12 h after its sign-in.
    const signedInAt = now.getTime();
    expectSuccess(await client.signIn(email, password));
    while (now.getTime() + 25 * 60_000 < signedInAt + 12 * 3_600_000) {
      now = new Date(now.getTime() + 25 * 60_000);
      expectSuccess(await client.call('GET', '/me'));
    }
    now = new Date(signedInAt + 12 * 3_600_000 + 60_000);
    expectFailure(await client.call('GET', '/me'), 401, 'session_required');
  });

  it('step-up is good for 10 minutes; a wrong password is 403', async () => {
    const { email, password } = await owner();
    const now = new Date('2030-02-01T08:00:00Z');
    const app = await extraApp({ now: () => now });
    const client = consoleClient(app.url);
    expectSuccess(await client.signIn(email, password));
    expectFailure(await client.call('POST', '/step-up', { body: { password: 'wrong one!' } }), 403, 'invalid_password');
    const me = expectSuccess(await client.call('POST', '/step-up', { body: { password } })) as { step_up_until: string };
    expect(me.step_up_until).to.equal('2030-02-01T08:10:00.000Z');
  });

  it('a password change ends every session of the owner and emails them', async () => {
    const { email, password } = await owner();
    const one = consoleClient(stack.url);
    const two = consoleClient(stack.url);
    expectSuccess(await one.signIn(email, password));
    expectSuccess(await two.signIn(email, password));
    expectFailure(await one.call('POST', '/password', { body: { current_password: 'wrong one!', new_password: 'another long password' } }), 403, 'invalid_password');
    expectFailure(await one.call('POST', '/password', { body: { current_password: password, new_password: 'short' } }), 422, 'password_too_short');
    expectSuccess(await one.call('POST', '/password', { body: { current_password: password, new_password: 'another long password' } }));
    expectFailure(await one.call('GET', '/me'), 401, 'session_required');
    expectFailure(await two.call('GET', '/me'), 401, 'session_required');
    expectFailure(await consoleClient(stack.url).signIn(email, password), 401, 'invalid_credentials');
    expectSuccess(await consoleClient(stack.url).signIn(email, 'another long password'));
    // The person is told, at their address.
    const smtp = await testSmtpServer();
    const [mail] = await eventually(async () => smtp.messages.filter((m) => m.to.includes(email) && m.subject === 'Your card service password was changed'), (m) => m.length === 1, 10_000);
    expect(mail!.text).to.include('every session of yours was ended');
    expect(mail!.text).not.to.include('another long password');
  });

  it('/v2/api ignores the console cookie', async () => {
    const { email, password } = await owner();
    const client = consoleClient(stack.url);
    expectSuccess(await client.signIn(email, password));
    const res = await fetch(`${stack.url}/v2/api/key/info`, { headers: { Cookie: `cardsvc_sid=${client.cookies.get('cardsvc_sid')}` } });
    expect(res.status).to.equal(401);
  });
});
