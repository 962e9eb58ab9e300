import { expect } from 'chai';
import { takeAttempt } from '../../services/console/throttle.ts';
import { expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { consoleClient, setOwnerPassword } from '../helpers/console.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';

describe('console: the password throttle', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });
  const owner = async () => {
    const account = await newAccount(stack.models);
    const password = 'correct horse battery';
    return { email: await setOwnerPassword(stack.models, account.accountId, password), password };
  };
  /** One sign-in through the JSON API, with the headers a proxy would add. */
  const signIn = async (url: string, email: string, password: string, headers: Record<string, string> = {}) => {
    const client = consoleClient(url);
    client.csrf = ((await client.call('GET', '/csrf')).body.data as { csrf_token: string }).csrf_token;
    return client.call('POST', '/sign-in', { body: { email, password }, headers });
  };

  it('40 wrong passwords at once: at most 5 are checked (401), the rest 429 with Retry-After', async () => {
    const { email } = await owner();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(stack.url, email, `wrong password ${i}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).to.be.at.most(5);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429), JSON.stringify(statuses)).to.equal(true);
    for (const res of answers.filter((r) => r.status === 429)) expect(Number(res.headers.get('retry-after'))).to.be.within(1, 900);
  });

  it('a right password gives its slot back: 4 wrong, 1 right, then 5 more wrong before the 429', async () => {
    const { email, password } = await owner();
    for (let i = 0; i < 4; i++) expectFailure(await signIn(stack.url, email, 'wrong password'), 401, 'invalid_credentials');
    expectSuccess(await signIn(stack.url, email, password));
    for (let i = 0; i < 5; i++) expectFailure(await signIn(stack.url, email, 'wrong password'), 401, 'invalid_credentials');
    expectFailure(await signIn(stack.url, email, password), 429, 'sign_in_throttled');
  });

  it('the window ends after 15 minutes (clock injected)', async () => {
    const { email, password } = await owner();
    let now = new Date('2031-03-01T09:00:00Z');
    const app = await extraApp({ now: () => now });
    for (let i = 0; i < 5; i++) expectFailure(await signIn(app.url, email, 'wrong password'), 401, 'invalid_credentials');
    expectFailure(await signIn(app.url, email, password), 429, 'sign_in_throttled');
    now = new Date('2031-03-01T09:14:59Z');
    expectFailure(await signIn(app.url, email, password), 429, 'sign_in_throttled');
    now = new Date('2031-03-01T09:15:01Z');
    expectSuccess(await signIn(app.url, email, password));
  });

  it('behind TRUST_PROXY the client is the last X-Forwarded-For hop: a spoofed leftmost address does not escape the throttle', async () => {
    const { email, password } = await owner();
    const app = await extraApp({ env: { TRUST_PROXY: 'true' } });
    for (let i = 0; i < 5; i++) expectFailure(await signIn(app.url, email, 'wrong password', { 'X-Forwarded-For': '203.0.113.7' }), 401, 'invalid_credentials');
    // The client wrote a fresh address first; the proxy appended the one it saw.
    expectFailure(await signIn(app.url, email, password, { 'X-Forwarded-For': `198.51.100.${Date.now() % 250}, 203.0.113.7` }), 429, 'sign_in_throttled');
    // Another client of the same proxy is another pair.
    expectSuccess(await signIn(app.url, email, password, { 'X-Forwarded-For': '203.0.113.8' }));
  });

  it('100 attempts an hour per email from all addresses, then 429', async () => {
    const email = `spread-${Date.now()}@example.com`;
    const ctx = { models: stack.models, now: () => new Date() };
    for (let i = 0; i < 100; i++) await takeAttempt(ctx, email, `192.0.2.${i}`);
    let refused: unknown;
    await takeAttempt(ctx, email, '192.0.2.200').catch((err: unknown) => (refused = err));
    expect(refused).to.deep.include({ status: 429, code: 'sign_in_throttled' });
  });

  it('step-up counts in the same throttle: 5 wrong passwords → 403 each, then 429', async () => {
    const { email, password } = await owner();
    const client = consoleClient(stack.url);
    expectSuccess(await client.signIn(email, password));
    for (let i = 0; i < 5; i++) expectFailure(await client.call('POST', '/step-up', { body: { password: 'wrong password' } }), 403, 'invalid_password');
    expectFailure(await client.call('POST', '/step-up', { body: { password } }), 429, 'sign_in_throttled');
  });

  it('the password change\'s current password too: 6 wrong ones → 5 × 403, then 429', async () => {
    const { email, password } = await owner();
    const client = consoleClient(stack.url);
    expectSuccess(await client.signIn(email, password));
    const change = (current: string) => client.call('POST', '/password', { body: { current_password: current, new_password: 'another long password' } });
    for (let i = 0; i < 5; i++) expectFailure(await change('wrong password'), 403, 'invalid_password');
    expectFailure(await change('wrong password'), 429, 'sign_in_throttled');
  });

  it('at PASSWORD_SCRYPT_LOG2N=16 a sign-in re-hashes an older, cheaper hash (N = 2^14) and the password still works', async () => {
    const { email, password } = await owner();
    const stored = async () => (await stack.models.User.findOne({ where: { email }, rejectOnEmpty: true })).password_hash!;
    expect(await stored()).to.match(/^scrypt\$16384\$/);
    const app = await extraApp({ env: { PASSWORD_SCRYPT_LOG2N: '16' } });
    expectSuccess(await signIn(app.url, email, password));
    expect(await stored()).to.match(/^scrypt\$65536\$8\$1\$/);
    expectSuccess(await signIn(app.url, email, password));
    expectFailure(await signIn(app.url, email, 'wrong password'), 401, 'invalid_credentials');
  });
});
