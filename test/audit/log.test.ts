// What the audit log holds after real requests: who did what to which thing, from the console and the key API,
// refusals as `access.denied`, and never a secret the flow made (the key, the signing secret, the token).
import { expect } from 'chai';
import { apiClient, expectSuccess, newKey, type TestAccount } from '../helpers/api.ts';
import { OWNER_PASSWORD, signedInConsole, signedInMember, type ConsoleClient } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('audit log: what requests write', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let owner: ConsoleClient;
  const secrets: string[] = [];

  const rows = async () => (await stack.models.AuditEvent.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] })).map((r) => r.get({ plain: true }));

  before(async () => {
    stack = await testStack();
    ({ account, client: owner } = await signedInConsole(stack, { plan: 'pro' }));
  });

  it('a key made in the console is written with its person, target and origin, never the key', async () => {
    expectSuccess(await owner.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    const made = await owner.ok<{ key: string; api_key: { id: number } }>('POST', '/keys', { name: 'CI', full_access: false, permissions: { widgets: 'manage' } });
    secrets.push(made.key);
    const row = (await rows()).find((r) => r.action === 'keys.create');
    expect(row).to.include({ actor_type: 'user', outcome: 'success', surface: 'console', ip: '127.0.0.1' });
    expect(row?.actor_label).to.match(/^owner-.*@example\.com$/);
    expect(row?.request_id).to.be.a('string');
  });

  it('a key’s write is written with the key’s masked name; a read is not', async () => {
    const { key, keyId } = await newKey(stack.models, account.accountId, { widgets: 'manage', ecards: 'manage', sends: 'manage' });
    secrets.push(key);
    const api = apiClient(stack, key);
    const saved = await api.ok<{ id: number }>('POST', '/widget/save', { widget: { name: 'Audited', wconfig: {} } });
    await api.ok('GET', `/widget/findOne/id/${saved.id}`);
    const written = (await rows()).filter((r) => r.actor_key_id === keyId);
    expect(written.map((r) => r.action)).to.deep.equal(['widgets.save']);
    expect(written[0]).to.include({ actor_type: 'api_key', surface: 'api', target_type: 'widgets', target_id: String(saved.id) });
    expect(written[0]?.actor_label).to.equal(`scoped (csk_live_…${key.slice(-4)})`);
  });

  it('a key outside its scope is written as access.denied with what it needed', async () => {
    const { key, keyId } = await newKey(stack.models, account.accountId, { widgets: 'view' });
    expect((await apiClient(stack, key).api('POST', '/widget/save', { widget: { name: 'No', wconfig: {} } })).status).to.equal(403);
    const denied = (await rows()).filter((r) => r.actor_key_id === keyId);
    expect(denied).to.have.length(1);
    expect(denied[0]).to.include({ action: 'access.denied', outcome: 'denied' });
    expect(JSON.parse(denied[0]?.details ?? '{}')).to.deep.equal({ method: 'POST', route: '/v2/api/widget/save', required: 'widgets:write' });
  });

  it('a member refused by their role is written as access.denied', async () => {
    const viewer = await signedInMember(stack, account, 'viewer');
    expect((await viewer.client.call('POST', '/keys', { body: {} })).status).to.equal(403);
    expect((await viewer.browser.get('/v2/console/keys')).status).to.equal(403);
    const denied = (await rows()).filter((r) => r.actor_user_id === viewer.user.id && r.action !== 'session.sign_in');
    expect(denied.map((r) => [r.action, r.outcome, (JSON.parse(r.details ?? '{}') as { required?: string }).required])).to.deep.equal([
      ['access.denied', 'denied', 'admin'],
      ['access.denied', 'denied', 'admin'],
    ]);
  });

  it('revealing and rotating the signing secret are written; no row holds any secret the flows made', async () => {
    const shown = await owner.ok<{ secret: string }>('GET', '/secret');
    const rotated = await owner.ok<{ secret: string }>('POST', '/secret/rotate', {});
    const token = await owner.ok<{ token: string }>('POST', '/tokens', { purpose: 'brand_delete', resource_id: (await stack.models.Brand.findOne({ where: { account_id: account.accountId } }))!.id });
    secrets.push(shown.secret, rotated.secret, token.token);
    const all = await rows();
    expect(all.map((r) => r.action)).to.include.members(['webhooks.reveal_secret', 'webhooks.rotate_secret', 'tokens.issue']);
    const text = JSON.stringify(all);
    for (const secret of secrets) expect(text).to.not.include(secret);
  });
});
