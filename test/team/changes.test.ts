// Changing who is in an account from the console: a member's role (to or from admin: step-up), removing a member
// (step-up; their sessions there end at once), leaving; the refusals the decisions name (owner_immutable, own_role,
// owner_by_transfer, owner_must_transfer, another account's person 404, a role without team: manage 403); the
// person emailed at the suite's SMTP server; each change in the audit log.
import { expect } from 'chai';
import { expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { OWNER_PASSWORD, ownerUser, signedInConsole, signedInMember, type ConsoleClient } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('team: changing roles, removing, leaving', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let owner: ConsoleClient;
  let ownerId: number;

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
    ({ account, client: owner } = await signedInConsole(stack, { plan: 'pro' }));
    ownerId = (await ownerUser(stack.models, account.accountId)).id;
  });

  const roleOf = async (userId: number) => (await stack.models.Membership.findOne({ where: { account_id: account.accountId, user_id: userId } }))?.role ?? null;
  const mailTo = (email: string, subject: RegExp) => eventually(async () => smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject ?? '')), (m) => m.length === 1, 10_000);
  const audited = (action: string, targetId: number) => stack.models.AuditEvent.count({ where: { account_id: account.accountId, action, target_id: String(targetId), outcome: 'success' } });

  it('gives a sender the designer role at once: their next request reads it, they are emailed, the log has it', async () => {
    const sender = await signedInMember(stack, account, 'sender');
    expectSuccess(await sender.client.call('POST', '/suppressions', { body: { email: 'before@example.com' } }));
    const res = await owner.call('POST', `/team/members/${sender.user.id}/role`, { body: { role: 'designer' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.deep.include({ user_id: sender.user.id, email: sender.user.email, role: 'designer' });
    expect(await roleOf(sender.user.id)).to.equal('designer');
    // Designers may view sends but no longer send.
    expectFailure(await sender.client.call('POST', '/suppressions', { body: { email: 'after@example.com' } }), 403, 'role_forbidden');
    expectSuccess(await sender.client.call('GET', '/suppressions'));
    const [mail] = await mailTo(sender.user.email, /role in .* is now designer/);
    expect(mail!.text).to.include('from sender to designer');
    expect(await audited('team.member_role', sender.user.id)).to.equal(1);
  });

  it('making or unmaking an admin needs step-up (403 step_up_required, nothing changed), then happens', async () => {
    const viewer = await signedInMember(stack, account, 'viewer');
    const { client: fresh } = await signedInConsole(stack, { account });
    expectFailure(await fresh.call('POST', `/team/members/${viewer.user.id}/role`, { body: { role: 'admin' } }), 403, 'step_up_required');
    expect(await roleOf(viewer.user.id)).to.equal('viewer');
    expectSuccess(await fresh.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expectSuccess(await fresh.call('POST', `/team/members/${viewer.user.id}/role`, { body: { role: 'admin' } }));
    expect(await roleOf(viewer.user.id)).to.equal('admin');
    // The new admin may change others but not the owner, nor themselves.
    expectFailure(await viewer.client.call('POST', `/team/members/${ownerId}/role`, { body: { role: 'viewer' } }), 422, 'owner_immutable');
    expectFailure(await viewer.client.call('POST', `/team/members/${viewer.user.id}/role`, { body: { role: 'viewer' } }), 422, 'own_role');
  });

  it('refuses the owner role (a transfer), the owner, oneself, bad roles, another account’s person, and roles without team: manage', async () => {
    const designer = await signedInMember(stack, account, 'designer');
    expectFailure(await owner.call('POST', `/team/members/${designer.user.id}/role`, { body: { role: 'owner' } }), 422, 'owner_by_transfer');
    expectFailure(await owner.call('POST', `/team/members/${ownerId}/role`, { body: { role: 'admin' } }), 422, 'own_role');
    expectFailure(await owner.call('POST', `/team/members/${designer.user.id}/role`, { body: { role: 'boss' } }), 400, 'invalid_parameter');
    expectFailure(await owner.call('POST', `/team/members/${designer.user.id}/role`, { body: {} }), 422, 'missing_field');
    expectFailure(await owner.call('POST', '/team/members/abc/role', { body: { role: 'viewer' } }), 400, 'invalid_parameter');
    const stranger = await signedInMember(stack, await newAccount(stack.models), 'viewer');
    expectFailure(await owner.call('POST', `/team/members/${stranger.user.id}/role`, { body: { role: 'sender' } }), 404, 'not_found');
    expectFailure(await owner.call('POST', `/team/members/${stranger.user.id}/remove`), 404, 'not_found');
    const res = await designer.client.call('POST', `/team/members/${designer.user.id}/role`, { body: { role: 'admin' } });
    expectFailure(res, 403, 'role_forbidden');
    expect(res.body).to.deep.include({ role: 'designer', required: 'team: manage' });
    expect(await roleOf(designer.user.id)).to.equal('designer');
    expect(await roleOf(stranger.user.id)).to.equal(null);
  });

  it('removing a member needs step-up, ends their sessions here at once and emails them; the owner and oneself are refused', async () => {
    const sender = await signedInMember(stack, account, 'sender');
    const { client: fresh } = await signedInConsole(stack, { account });
    expectFailure(await fresh.call('POST', `/team/members/${sender.user.id}/remove`), 403, 'step_up_required');
    expect(await roleOf(sender.user.id)).to.equal('sender');
    expectSuccess(await fresh.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expectFailure(await fresh.call('POST', `/team/members/${ownerId}/remove`), 422, 'own_role');
    expectSuccess(await fresh.call('POST', `/team/members/${sender.user.id}/remove`));
    expect(await roleOf(sender.user.id)).to.equal(null);
    expect(await stack.models.ConsoleSession.count({ where: { owner_id: sender.user.id } })).to.equal(0);
    expectFailure(await sender.client.call('GET', '/me'), 401, 'session_required');
    expect((await sender.browser.get('/v2/console/sends')).status).to.equal(303);
    await mailTo(sender.user.email, /removed from/);
    expect(await audited('team.member_remove', sender.user.id)).to.equal(1);
    // An admin may not remove the owner.
    const admin = await signedInMember(stack, account, 'admin');
    expectSuccess(await admin.client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expectFailure(await admin.client.call('POST', `/team/members/${ownerId}/remove`), 422, 'owner_immutable');
  });

  it('a member leaves (their sessions here end, their other accounts stay); the owner must transfer first', async () => {
    const viewer = await signedInMember(stack, account, 'viewer');
    const elsewhere = await newAccount(stack.models);
    await stack.models.Membership.create({ account_id: elsewhere.accountId, user_id: viewer.user.id, role: 'sender' });
    const res = await viewer.client.call('POST', '/team/leave');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers.get('set-cookie')).to.match(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expect(await roleOf(viewer.user.id)).to.equal(null);
    expect(await stack.models.Membership.count({ where: { user_id: viewer.user.id, account_id: elsewhere.accountId } })).to.equal(1);
    expectFailure(await viewer.client.call('GET', '/me'), 401, 'session_required');
    expect(await stack.models.AuditEvent.count({ where: { account_id: account.accountId, action: 'team.leave', actor_user_id: viewer.user.id } })).to.equal(1);
    expectFailure(await owner.call('POST', '/team/leave'), 422, 'owner_must_transfer');
    expect(await roleOf(ownerId)).to.equal('owner');
  });

  it('the Team page’s forms: leaving signs the person out to the sign-in page; a refused change is a page saying why', async () => {
    const sender = await signedInMember(stack, account, 'sender');
    const admin = await signedInMember(stack, account, 'admin');
    const own = await admin.browser.post(`/v2/console/settings/team/${admin.user.id}/role`, { _csrf: admin.csrf, role: 'viewer' });
    expect(own.status).to.equal(422);
    expect(await own.text()).to.include('leave the account instead');
    expect(await roleOf(admin.user.id)).to.equal('admin');
    const left = await sender.browser.post('/v2/console/settings/team/leave', { _csrf: sender.csrf });
    expect(left.status).to.equal(303);
    expect(left.headers.get('location')).to.equal('/v2/console/sign-in');
    expect(await roleOf(sender.user.id)).to.equal(null);
    expect((await sender.browser.get('/v2/console/')).status).to.equal(303);
  });
});
