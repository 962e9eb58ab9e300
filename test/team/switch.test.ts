// A person in several accounts switches between them: the console API's /account/switch and the header's form on
// every page; the role is the new account's at once, the mode live, a step-up kept; the next sign-in opens the
// account last switched to; an account they are not in is 404.
import { expect } from 'chai';
import { expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { consoleClient, hidden, OWNER_PASSWORD, signedInMember } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Me = { account_id: number; account_name: string; role: string; mode: string; step_up_until: string | null; accounts: Array<{ account_id: number; role: string }> };

describe('team: switching between one’s accounts', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let first: TestAccount;
  let second: TestAccount;
  let person: Awaited<ReturnType<typeof signedInMember>>;

  before(async () => {
    stack = await testStack();
    first = await newAccount(stack.models);
    second = await newAccount(stack.models);
    person = await signedInMember(stack, first, 'admin');
    await stack.models.Membership.create({ account_id: second.accountId, user_id: person.user.id, role: 'sender' });
  });

  it('moves the session to the other account: its role at once, live mode, the step-up kept; the log has it', async () => {
    const { client } = person;
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expectSuccess(await client.call('GET', '/audit/events'));
    const res = await client.call('POST', '/account/switch', { body: { account_id: second.accountId } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const me = res.body.data as Me;
    expect(me).to.deep.include({ account_id: second.accountId, role: 'sender', mode: 'live' });
    expect(me.step_up_until).to.be.a('string');
    expect(me.accounts.map((a) => [a.account_id, a.role])).to.deep.equal([[first.accountId, 'admin'], [second.accountId, 'sender']]);
    // A sender has no audit log.
    expectFailure(await client.call('GET', '/audit/events'), 403, 'role_forbidden');
    // Written in the account entered: its people see who came in.
    expect(await stack.models.AuditEvent.count({ where: { account_id: second.accountId, action: 'session.switch_account', actor_user_id: person.user.id } })).to.equal(1);
    expect((await client.ok<Me>('POST', '/account/switch', { account_id: first.accountId })).role).to.equal('admin');
  });

  it('refuses an account the person is not in (404), a sandbox (404), a bad or missing id', async () => {
    const { client } = person;
    const stranger = await newAccount(stack.models);
    expectFailure(await client.call('POST', '/account/switch', { body: { account_id: stranger.accountId } }), 404, 'not_found');
    expectFailure(await client.call('POST', '/account/switch', { body: { account_id: first.sandboxAccountId } }), 404, 'not_found');
    expectFailure(await client.call('POST', '/account/switch', { body: { account_id: 'first' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/account/switch', { body: {} }), 422, 'missing_field');
    expect((await client.ok<Me>('GET', '/me')).account_id).to.equal(first.accountId);
  });

  it('the next sign-in opens the account last switched to', async () => {
    expectSuccess(await person.client.call('POST', '/account/switch', { body: { account_id: second.accountId } }));
    const again = consoleClient(stack.url);
    const signedIn = expectSuccess(await again.signIn(person.user.email, OWNER_PASSWORD)) as Me;
    expect(signedIn).to.deep.include({ account_id: second.accountId, role: 'sender' });
  });

  it('every page’s header offers the switch to someone with several accounts, and its form switches', async () => {
    const { browser, csrf } = person;
    const home = await (await browser.get('/v2/console/')).text();
    expect(home).to.include('action="/v2/console/account/switch"');
    expect(home).to.match(new RegExp(`<option value="${first.accountId}"[^>]*>[^<]+ \\(admin\\)</option>`));
    const switched = await browser.post('/v2/console/account/switch', { _csrf: csrf, account_id: String(first.accountId) });
    expect(switched.status).to.equal(303);
    expect(switched.headers.get('location')).to.equal('/v2/console/');
    const name = (await stack.models.Account.findByPk(first.accountId, { rejectOnEmpty: true })).name;
    const after = await (await browser.get('/v2/console/')).text();
    expect(after).to.include(`Managing</span> <strong>${name}</strong>`);
    expect(hidden(after, '_csrf')).to.equal(csrf);
    // Someone in one account sees no switch.
    const onePage = await signedInMember(stack, await newAccount(stack.models), 'viewer');
    expect(await (await onePage.browser.get('/v2/console/')).text()).not.to.include('/v2/console/account/switch');
  });
});
