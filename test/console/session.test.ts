import { expect } from 'chai';
import { call, expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { consoleClient, setOwnerPassword } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

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
