// A person's own console sessions: each sign-in is listed with its address and browser, the current one marked; one
// can be ended (that session is signed out at once), or every other; another person's session is 404.
import { expect } from 'chai';
import { expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { consoleClient, hidden, OWNER_PASSWORD, signedInConsole, signedInMember, type ConsoleClient } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Listed = { id: string; current: boolean; ip: string | null; user_agent: string | null; account_id: number; mode: string };

describe('console: your sessions', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let first: ConsoleClient;
  let email: string;
  let accountId: number;

  const signInAgain = async (userAgent: string) => {
    const client = consoleClient(stack.url);
    const token = await client.call('GET', '/csrf');
    client.csrf = (token.body.data as { csrf_token: string }).csrf_token;
    const res = await client.call('POST', '/sign-in', { body: { email, password: OWNER_PASSWORD }, headers: { 'User-Agent': userAgent } });
    client.csrf = (expectSuccess(res) as { csrf_token: string }).csrf_token;
    return client;
  };
  const list = async (client: ConsoleClient) => (await client.ok<{ sessions: Listed[] }>('GET', '/me/sessions')).sessions;

  before(async () => {
    stack = await testStack();
    const signed = await signedInConsole(stack);
    first = signed.client;
    accountId = signed.account.accountId;
    email = (await first.ok<{ user: { email: string } }>('GET', '/me')).user.email;
  });

  it('lists each sign-in with its address and browser, newest first, this one marked', async () => {
    const second = await signInAgain('Firefox on a test bench');
    const sessions = await list(second);
    expect(sessions.length).to.equal(2);
    expect(sessions[0]).to.include({ current: true, ip: '127.0.0.1', user_agent: 'Firefox on a test bench', account_id: accountId, mode: 'live' });
    expect(sessions[1]?.current).to.equal(false);
    expect(sessions[0]?.id).to.match(/^[A-Za-z0-9_-]{16}$/);
  });

  it('ends one session: it is signed out at once, the others stay', async () => {
    const doomed = await signInAgain('Doomed browser');
    const id = (await list(doomed)).find((s) => s.current)?.id as string;
    expectSuccess(await first.call('POST', `/me/sessions/${id}/revoke`, { body: {} }));
    expectFailure(await doomed.call('GET', '/me'), 401, 'session_required');
    expect((await list(first)).map((s) => s.id)).to.not.include(id);
  });

  it('another person’s session, or an unknown id, is 404 and ends nothing', async () => {
    const other = await signedInConsole(stack);
    const theirs = (await list(other.client))[0]?.id as string;
    expectFailure(await first.call('POST', `/me/sessions/${theirs}/revoke`, { body: {} }), 404, 'not_found');
    expectFailure(await first.call('POST', '/me/sessions/nosuchsession/revoke', { body: {} }), 404, 'not_found');
    expectFailure(await first.call('POST', '/me/sessions/bad!id/revoke', { body: {} }), 400, 'invalid_parameter');
    expectSuccess(await other.client.call('GET', '/me'));
  });

  it('ends every other session and says how many', async () => {
    const a = await signInAgain('Browser A');
    await signInAgain('Browser B');
    const { revoked } = await a.ok<{ revoked: number }>('POST', '/me/sessions/revoke-others', {});
    expect(revoked).to.be.at.least(2);
    expectFailure(await first.call('GET', '/me'), 401, 'session_required');
    expect((await list(a)).map((s) => s.current)).to.deep.equal([true]);
    first = a;
  });

  it('the Sessions page lists them and ends one by its button, for any role', async () => {
    const viewer = await signedInMember(stack, await newAccount(stack.models), 'viewer');
    const page = await (await viewer.browser.get('/v2/console/profile/sessions')).text();
    expect(page).to.include('This session');
    const ids = [...page.matchAll(/\/v2\/console\/profile\/sessions\/([A-Za-z0-9_-]+)\/revoke/g)].map((m) => m[1]);
    // The viewer's API client signed in first: its session has the one button.
    expect(ids).to.have.length(1);
    const res = await viewer.browser.post(`/v2/console/profile/sessions/${ids[0]}/revoke`, { _csrf: hidden(page, '_csrf') });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal('/v2/console/profile/sessions?ended=one');
    expectFailure(await viewer.client.call('GET', '/me'), 401, 'session_required');
    const after = await (await viewer.browser.get('/v2/console/profile/sessions?ended=one')).text();
    expect(after).to.include('The session was ended.');
    expect(after).to.not.include('End every other session');
  });
});
