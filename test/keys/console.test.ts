import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { KEY_CACHE_MS, KEY_PATTERN } from '../../services/api-keys.ts';
import { call, expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { consoleClient, OWNER_PASSWORD, ownerUser, signedInConsole } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

describe('console: API keys', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const keyCount = (accountId: number) => stack.models.ApiKey.count({ where: { account_id: accountId } });
  const keyInfo = (key: string) => call(stack.url, 'GET', '/v2/api/key/info', { key });

  it('lists the current account\'s keys with scopes, last use and state, never a key; the sandbox switch lists the sandbox\'s', async () => {
    const { account, client } = await signedInConsole(stack);
    expectSuccess(await keyInfo(account.liveKey));
    const listed = (await client.ok('GET', '/keys')).keys as Json[];
    expect(listed).to.have.length(1);
    const row = (await stack.models.ApiKey.findByPk(account.liveKeyId))!;
    expect(listed[0]).to.deep.equal({
      id: account.liveKeyId,
      name: row.name,
      mode: 'live',
      last4: account.liveKey.slice(-4),
      full_access: true,
      permissions: row.permissions,
      created_at: row.created_at.toISOString(),
      last_used_at: (await eventually(() => stack.models.ApiKey.findByPk(account.liveKeyId), (k) => k!.last_used_at !== null))!.last_used_at!.toISOString(),
      status: 'active',
      revoked_at: null,
    });
    expect(JSON.stringify(listed)).not.to.include(account.liveKey).and.not.include(row.key_hash);
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    const sandbox = (await client.ok('GET', '/keys')).keys as Json[];
    expect(sandbox.map((k) => k.id)).to.deep.equal([account.sandboxKeyId]);
    expect(sandbox[0]).to.deep.include({ mode: 'sandbox', last4: account.sandboxKey.slice(-4) });
  });

  it('creates a scoped key shown once that authenticates on /v2/api; in sandbox mode a csk_test_ key on the sandbox', async () => {
    const { account, client } = await signedInConsole(stack);
    const created = await client.ok('POST', '/keys', { name: 'CI', permissions: { ecards: 'manage', widgets: 'view' } });
    const key = created.key as string;
    expect(key).to.match(KEY_PATTERN).and.match(/^csk_live_/);
    const apiKey = created.api_key as Json;
    expect(apiKey).to.deep.include({ name: 'CI', mode: 'live', full_access: false, status: 'active', last4: key.slice(-4) });
    expect(apiKey.permissions).to.deep.include({ ecards: 'manage', widgets: 'view', campaigns: 'none', settings: 'none' });
    const row = (await stack.models.ApiKey.findByPk(apiKey.id as number))!;
    expect(row).to.deep.include({ account_id: account.accountId, key_hash: createHash('sha256').update(key).digest('hex') });
    expect(expectSuccess(await keyInfo(key))).to.deep.include({ key_id: apiKey.id, name: 'CI', capabilities: ['ecards:read', 'ecards:write', 'widgets:read'] });
    expect(JSON.stringify(await client.ok('GET', '/keys'))).not.to.include(key);

    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    const sandbox = await client.ok('POST', '/keys', { permissions: { sends: 'manage' } });
    expect(sandbox.key).to.match(/^csk_test_/);
    expect((await stack.models.ApiKey.findByPk((sandbox.api_key as Json).id as number))!.account_id).to.equal(account.sandboxAccountId);
    expect(expectSuccess(await keyInfo(sandbox.key as string))).to.deep.include({ mode: 'sandbox' });
  });

  it('a full-access key needs step-up (403 step_up_required, nothing written), then is created', async () => {
    const { account, client } = await signedInConsole(stack);
    const before = await keyCount(account.accountId);
    expectFailure(await client.call('POST', '/keys', { body: { name: 'Root', full_access: true } }), 403, 'step_up_required');
    expect(await keyCount(account.accountId)).to.equal(before);
    expectFailure(await client.call('POST', '/step-up', { body: { password: 'wrong password!' } }), 403, 'invalid_password');
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    const created = await client.ok('POST', '/keys', { name: 'Root', full_access: true });
    expect(created.api_key).to.deep.include({ full_access: true });
    expect(expectSuccess(await keyInfo(created.key as string))).to.deep.include({ full_access: true });
  });

  for (const area of ['gift_cards', 'webhooks', 'settings', 'directory']) {
    it(`manage on ${area} is as much power as full access: creating, rescoping to and rotating such a key need step-up`, async () => {
      const { account, client } = await signedInConsole(stack);
      const before = await keyCount(account.accountId);
      expectFailure(await client.call('POST', '/keys', { body: { name: 'Power', permissions: { [area]: 'manage' } } }), 403, 'step_up_required');
      expect(await keyCount(account.accountId)).to.equal(before);
      // Less is fine without: view on it, manage elsewhere.
      const modest = await client.ok('POST', '/keys', { name: 'Modest', permissions: { [area]: 'view', ecards: 'manage', campaigns: 'manage' } });
      const id = (modest.api_key as { id: number }).id;
      expectFailure(await client.call('POST', `/keys/${id}`, { body: { permissions: { [area]: 'manage' } } }), 403, 'step_up_required');
      expect((await stack.models.ApiKey.findByPk(id))!.permissions).to.deep.include({ [area]: 'view' });
      expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
      const raised = await client.ok('POST', `/keys/${id}`, { permissions: { [area]: 'manage' } });
      expect((raised.permissions as Json)[area]).to.equal('manage');
      expect((await client.ok('POST', '/keys', { name: 'Power', permissions: { [area]: 'manage' } })).api_key).to.deep.include({ full_access: false });
    });
  }

  it('a key may read team and audit, never manage them; reading them needs step-up, as people and the log are sensitive', async () => {
    const { account, client } = await signedInConsole(stack);
    const before = await keyCount(account.accountId);
    for (const area of ['team', 'audit']) {
      const res = await client.call('POST', '/keys', { body: { name: 'Too much', permissions: { [area]: 'manage' } } });
      expect(expectFailure(res, 400, 'invalid_parameter').join(' ')).to.include(area);
      expectFailure(await client.call('POST', '/keys', { body: { name: 'HR sync', permissions: { [area]: 'view' } } }), 403, 'step_up_required');
    }
    expect(await keyCount(account.accountId)).to.equal(before);
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    const made = await client.ok('POST', '/keys', { name: 'HR sync', permissions: { team: 'view', audit: 'view' } });
    expect(made.api_key).to.deep.include({ full_access: false });
    expect((made.api_key as Json).permissions).to.deep.include({ team: 'view', audit: 'view', ecards: 'none' });
    expect(expectSuccess(await keyInfo(made.key as string))).to.deep.include({ capabilities: ['team:read', 'audit:read'] });
  });

  it('rotating a key with manage on directory needs step-up', async () => {
    const { client } = await signedInConsole(stack);
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    const made = await client.ok('POST', '/keys', { name: 'Directory sync', permissions: { directory: 'manage' } });
    const id = (made.api_key as { id: number }).id;
    // The same owner in a new session, not stepped up.
    expectSuccess(await client.call('POST', '/sign-out'));
    const again = consoleClient(stack.url);
    const owner = await ownerUser(stack.models, (await stack.models.ApiKey.findByPk(id))!.account_id);
    expectSuccess(await again.signIn(owner.email, OWNER_PASSWORD));
    expectFailure(await again.call('POST', `/keys/${id}/rotate`), 403, 'step_up_required');
    expectSuccess(await again.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expectSuccess(await again.call('POST', `/keys/${id}/rotate`));
  });

  it('bad input is refused with nothing written; no session is 401; a POST without the CSRF token is 403', async () => {
    const { account, client } = await signedInConsole(stack);
    const before = await keyCount(account.accountId);
    const bad = [
      { name: 'both', full_access: true, permissions: { ecards: 'view' } },
      { name: 'neither' },
      { permissions: { payroll: 'view' } },
      { permissions: { ecards: 'admin' } },
      { name: 'x'.repeat(101), permissions: {} },
      'not an object',
    ];
    for (const body of bad) {
      const res = await client.call('POST', '/keys', { body });
      expect(res.status, JSON.stringify(body)).to.be.oneOf([400, 422]);
      expect(res.body).to.deep.include({ success: false, data: null });
    }
    const update = await client.call('POST', `/keys/${account.liveKeyId}`, { body: {} });
    expect(update.status).to.be.oneOf([400, 422]);
    expect((await client.call('POST', '/keys/abc/revoke')).status).to.be.oneOf([400, 404]);
    expect((await client.call('POST', `/keys/${account.liveKeyId}/rotate`, { body: { grace_seconds: -1 } })).status).to.be.oneOf([400, 422]);
    expect(await keyCount(account.accountId)).to.equal(before);
    expect((await stack.models.ApiKey.findByPk(account.liveKeyId))!.revoked_at).to.equal(null);

    expectFailure(await client.call('POST', '/keys', { body: { permissions: { ecards: 'view' } }, csrf: null }), 403, 'csrf_invalid');
    expect(await keyCount(account.accountId)).to.equal(before);
    const anonymous = consoleClient(stack.url);
    expectFailure(await anonymous.call('GET', '/keys'), 401, 'session_required');
    expectFailure(await anonymous.call('POST', `/keys/${account.liveKeyId}/revoke`), 401, 'session_required');
    expectFailure(await call(stack.url, 'GET', '/v2/console/api/keys', { key: account.liveKey }), 401, 'session_required');
  });

  it('renames and rescopes a key (a full-access key becomes scoped); /key/info follows', async () => {
    const { account, client } = await signedInConsole(stack);
    const renamed = await client.ok('POST', `/keys/${account.liveKeyId}`, { name: 'Renamed' });
    expect(renamed).to.deep.include({ name: 'Renamed', full_access: true });
    const scoped = await client.ok('POST', `/keys/${account.liveKeyId}`, { permissions: { campaigns: 'view' } });
    expect(scoped).to.deep.include({ name: 'Renamed', full_access: false });
    expect(scoped.permissions).to.deep.include({ campaigns: 'view', ecards: 'none' });
    await eventually(() => keyInfo(account.liveKey), (res) => res.status === 200 && (res.body.data as Json).full_access === false, KEY_CACHE_MS + 3000);
    expect(expectSuccess(await keyInfo(account.liveKey))).to.deep.include({ name: 'Renamed', capabilities: ['campaigns:read'] });
  });

  it('rotates with grace (both keys work, the old one rotating), and a revoked key stops working', async () => {
    const { client } = await signedInConsole(stack);
    const scoped = await client.ok('POST', '/keys', { name: 'Rotate me', permissions: { ecards: 'view' } });
    const oldId = (scoped.api_key as Json).id as number;
    const rotated = await client.ok('POST', `/keys/${oldId}/rotate`, { grace_seconds: 3600 });
    expect(rotated.key).to.match(/^csk_live_/);
    expect(rotated.api_key).to.deep.include({ name: 'Rotate me', status: 'active' });
    expect(rotated.replaced).to.deep.include({ id: oldId, status: 'rotating' });
    expectSuccess(await keyInfo(scoped.key as string));
    expectSuccess(await keyInfo(rotated.key as string));

    const newId = (rotated.api_key as Json).id as number;
    const revoked = await client.ok('POST', `/keys/${newId}/revoke`);
    expect(revoked).to.deep.include({ id: newId, status: 'revoked' });
    await eventually(() => keyInfo(rotated.key as string), (res) => res.status === 401, KEY_CACHE_MS + 3000);
    expectFailure(await client.call('POST', `/keys/${newId}/rotate`), 409, 'key_revoked');
    const states = ((await client.ok('GET', '/keys')).keys as Json[]).map((k) => [k.id, k.status]);
    expect(states).to.deep.include.members([[oldId, 'rotating'], [newId, 'revoked']]);
  });

  it('rotating a full-access key needs step-up', async () => {
    const { account, client } = await signedInConsole(stack);
    expectFailure(await client.call('POST', `/keys/${account.liveKeyId}/rotate`), 403, 'step_up_required');
    expect(await keyCount(account.accountId)).to.equal(1);
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expect((await client.ok('POST', `/keys/${account.liveKeyId}/rotate`)).replaced).to.deep.include({ status: 'revoked' });
  });

  it('another account\'s key (and the sandbox\'s from live mode) is 404 everywhere, and stays as it was', async () => {
    const { account, client } = await signedInConsole(stack);
    const other = await newAccount(stack.models);
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    const before = (await stack.models.ApiKey.findByPk(other.liveKeyId))!.toJSON();
    for (const [path, body] of [
      [`/keys/${other.liveKeyId}`, { name: 'Mine now' }],
      [`/keys/${other.liveKeyId}/rotate`, { grace_seconds: 0 }],
      [`/keys/${other.liveKeyId}/revoke`, undefined],
      [`/keys/${account.sandboxKeyId}/revoke`, undefined],
    ] as const) {
      expectFailure(await client.call('POST', path, body === undefined ? {} : { body }), 404, 'key_not_found');
    }
    expect((await stack.models.ApiKey.findByPk(other.liveKeyId))!.toJSON()).to.deep.equal(before);
    expect(await keyCount(other.accountId)).to.equal(1);
    expectSuccess(await keyInfo(other.liveKey));
    expectSuccess(await keyInfo(account.sandboxKey));
  });
});
