// The key API's `audit` area: what people and keys did, as the console's log reads it; one row by id; another
// account's rows and ids are 404; a key without `audit: view` is 403, bad filters 400.
import { expect } from 'chai';
import { apiClient, expectFailure, newAccount, newKey, type ApiClient, type TestAccount } from '../helpers/api.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Item = { id: number; action: string; outcome: string; surface: string; actor: { type: string; key_id: number | null; label: string }; target: { type: string | null; id: string | null } };

describe('audit log: the key API’s audit area', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let reader: ApiClient;
  let brandId: number;

  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models);
    // Something worth a row: a brand saved with the account's full-access key.
    brandId = (await apiClient(stack, account.liveKey).ok<{ id: number }>('POST', '/brand/save', { brand: { name: 'Audited brand' } })).id;
    reader = apiClient(stack, (await newKey(stack.models, account.accountId, { audit: 'view' })).key);
  });

  it('lists what the account’s keys did, newest first, with who did it; filters by action', async () => {
    const res = await reader.api('GET', '/audit/events?action=brands.*');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const items = res.body.data as Item[];
    expect(items).to.have.length(1);
    expect(items[0]).to.deep.include({ outcome: 'success', surface: 'api', target: { type: 'brands', id: String(brandId) } });
    expect(items[0]!.actor).to.deep.include({ type: 'api_key', key_id: account.liveKeyId });
    expect(items[0]!.actor.label).to.match(/\(csk_live_….{4}\)$/);
    expect(res.body.meta).to.deep.equal({ next_before_id: null, has_more: false, retention_days: 365 });
  });

  it('answers one row by id; another account’s row or an unknown id is 404', async () => {
    const [first] = (await reader.ok<Item[]>('GET', '/audit/events?perPage=1'));
    expect(await reader.ok('GET', `/audit/events/${first!.id}`)).to.deep.equal(first);
    const other = await newAccount(stack.models);
    await apiClient(stack, other.liveKey).ok('POST', '/brand/save', { brand: { name: 'Theirs' } });
    const theirs = await stack.models.AuditEvent.findOne({ where: { account_id: other.accountId }, order: [['id', 'DESC']] });
    expectFailure(await reader.api('GET', `/audit/events/${theirs!.id}`), 404, 'not_found');
    expect((await reader.ok<Item[]>('GET', '/audit/events?perPage=200')).map((i) => i.id)).not.to.include(theirs!.id);
    expectFailure(await reader.api('GET', `/audit/events?actor_key_id=${other.liveKeyId}`), 404, 'key_not_found');
    expectFailure(await reader.api('GET', '/audit/events/999999999'), 404, 'not_found');
  });

  it('a sandbox key reads the sandbox’s rows only', async () => {
    const sandbox = apiClient(stack, account.sandboxKey);
    await sandbox.ok('POST', '/brand/save', { brand: { name: 'Sandbox brand' } });
    const rows = await apiClient(stack, (await newKey(stack.models, account.sandboxAccountId, { audit: 'view' }, 'test')).key).ok<Item[]>('GET', '/audit/events?action=brands.*');
    expect(rows.map((r) => r.actor.key_id)).to.deep.equal([account.sandboxKeyId]);
  });

  it('refuses a key without audit: view (403, itself a denied row), bad filters and ids (400)', async () => {
    const teamOnly = await newKey(stack.models, account.accountId, { team: 'view', settings: 'manage' });
    expectFailure(await apiClient(stack, teamOnly.key).api('GET', '/audit/events'), 403, 'key_out_of_scope');
    const denied = await reader.ok<Item[]>('GET', '/audit/events?outcome=denied');
    expect(denied[0]).to.deep.include({ action: 'access.denied' });
    expect(denied[0]!.actor.key_id).to.equal(teamOnly.keyId);
    for (const query of ['?action=brands', '?perPage=201', '?dateFrom=yesterday', '?before_id=-1', '?actor_type=robot']) {
      expectFailure(await reader.api('GET', `/audit/events${query}`), 400, 'invalid_parameter');
    }
    expectFailure(await reader.api('GET', '/audit/events/abc'), 400, 'invalid_parameter');
  });
});
