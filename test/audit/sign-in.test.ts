// A person proving who they are, in the audit log: a sign-in and a failed one in each account they belong to, with
// the address and the browser; nothing for an address no one has; a wrong step-up password in the session's account.
// No row holds a password tried.
import { expect } from 'chai';
import { expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { consoleClient, OWNER_PASSWORD, signedInMember } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('audit log: sign-ins and step-ups', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let first: TestAccount;
  let second: TestAccount;
  let person: Awaited<ReturnType<typeof signedInMember>>;
  const WRONG = 'not-the-password-9b1f';

  before(async () => {
    stack = await testStack();
    first = await newAccount(stack.models);
    second = await newAccount(stack.models);
    person = await signedInMember(stack, first, 'designer');
    await stack.models.Membership.create({ account_id: second.accountId, user_id: person.user.id, role: 'viewer' });
  });

  const rows = (action: string) => stack.models.AuditEvent.findAll({ where: { action, actor_user_id: person.user.id }, order: [['id', 'ASC']] });

  it('writes a failed sign-in of a known person in each of their accounts, denied, with where it came from', async () => {
    expectFailure(await consoleClient(stack.url).signIn(person.user.email.toUpperCase(), WRONG), 401, 'invalid_credentials');
    const failed = await rows('session.sign_in_failed');
    expect(failed.map((r) => r.account_id).sort()).to.deep.equal([first.accountId, second.accountId].sort());
    for (const row of failed) {
      expect(row).to.deep.include({ outcome: 'denied', actor_type: 'user', actor_label: person.user.email, surface: 'console', ip: '127.0.0.1' });
      expect(row.user_agent).to.be.a('string').and.not.equal('');
      expect(row.request_id).to.be.a('string');
    }
  });

  it('writes a sign-in in each account; an address no one has writes nothing', async () => {
    const before = await rows('session.sign_in');
    expectSuccess(await consoleClient(stack.url).signIn(person.user.email, OWNER_PASSWORD));
    const after = await rows('session.sign_in');
    expect(after.slice(before.length).map((r) => [r.account_id, r.outcome]).sort()).to.deep.equal([[first.accountId, 'success'], [second.accountId, 'success']].sort());
    const count = await stack.models.AuditEvent.count();
    expectFailure(await consoleClient(stack.url).signIn('nobody-here@example.com', WRONG), 401, 'invalid_credentials');
    expect(await stack.models.AuditEvent.count()).to.equal(count);
  });

  it('writes a wrong step-up password in the account the session is on, and no row holds a password tried', async () => {
    expectFailure(await person.client.call('POST', '/step-up', { body: { password: WRONG } }), 403, 'invalid_password');
    const page = await person.browser.post('/v2/console/step-up', { _csrf: person.csrf, password: WRONG, next: '/v2/console/' });
    expect(page.status).to.equal(403);
    const failed = await rows('session.step_up_failed');
    expect(failed.map((r) => [r.account_id, r.outcome])).to.deep.equal([[first.accountId, 'denied'], [first.accountId, 'denied']]);
    const all = await stack.models.AuditEvent.findAll({ where: { account_id: [first.accountId, second.accountId] }, raw: true });
    expect(JSON.stringify(all)).not.to.include(WRONG).and.not.include(OWNER_PASSWORD);
  });
});
