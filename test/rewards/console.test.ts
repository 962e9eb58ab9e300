import { expect } from 'chai';
import { apiClient, call, expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { consoleClient, OWNER_PASSWORD, signedInConsole } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

describe('console: rewards (settings, spend rules, codes, inventory, orders)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let counter = 0;
  before(async () => {
    stack = await testStack();
  });

  /** Signed in and stepped up: reward settings and loosening a spend rule need the password again. */
  const steppedUp = async () => {
    const owner = await signedInConsole(stack);
    expectSuccess(await owner.client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    return owner;
  };

  /** What the key API answers for the same account (the console must answer the same). */
  const { ok } = apiClient(() => stack);

  async function addOrder(accountId: number, fields: Json = {}) {
    return stack.models.GiftOrder.create({
      account_id: accountId, order_key: `console:${process.pid}:${accountId}:${++counter}`, scope: 'widget', campaign_id: null, automation_id: null,
      send_id: null, send_recipient_id: null, member_id: null, recipient_name: 'Rita Reyes', recipient_email: 'rita@example.com',
      product_id: 'manual:Acme:25', brand: 'Acme', amount_cents: 2500, currency: 'USD', source: 'manual', spend_day: '2026-03-18', ...fields,
    });
  }

  it('changing the settings needs step-up (403 step_up_required, nothing written)', async () => {
    const { account, client } = await signedInConsole(stack);
    expectFailure(await client.call('POST', '/rewards/settings', { body: { velocity_limits_enabled: false } }), 403, 'step_up_required');
    expect(await stack.models.GiftSettings.count({ where: { account_id: account.accountId } })).to.equal(0);
  });

  it('raising or removing a spend rule needs step-up; adding or lowering one does not', async () => {
    const { account, client } = await signedInConsole(stack);
    const rule = (period: string, limit: number) => client.call('POST', '/rewards/rules', { body: { period, limit } });
    expectSuccess(await rule('week', 1000));
    expectSuccess(await rule('week', 500));
    expectFailure(await rule('week', 501), 403, 'step_up_required');
    expectFailure(await rule('week', 0), 403, 'step_up_required');
    expect((await stack.models.GiftRule.findAll({ where: { account_id: account.accountId } })).map((r) => [r.period, r.limit_cents])).to.deep.equal([['week', 50000]]);
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expectSuccess(await rule('week', 2000));
    expectSuccess(await rule('week', 0));
    expect(await stack.models.GiftRule.count({ where: { account_id: account.accountId } })).to.equal(0);
  });

  it('reads and changes the settings; the answer is the key API’s getSettings', async () => {
    const { account, client } = await steppedUp();
    expect(expectSuccess(await client.call('GET', '/rewards/settings'))).to.deep.equal(await ok('GET', '/gift-card/getSettings', undefined, account.liveKey));
    const changed = expectSuccess(
      await client.call('POST', '/rewards/settings', { body: { provider_mode: 'provider', min_amount: 5, max_amount: 250.5, velocity_limits_enabled: false, claim_expiry_days: 30 } }),
    );
    expect(changed).to.deep.equal({ provider_mode: 'provider', provider: null, currency: 'USD', min_amount: 5, max_amount: 250.5, velocity_limits_enabled: false, claim_expiry_days: 30 });
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.liveKey)).to.deep.equal(changed);
    // A partial change keeps the rest.
    expect(expectSuccess(await client.call('POST', '/rewards/settings', { body: { provider_mode: 'manual' } }))).to.deep.include({ provider_mode: 'manual', min_amount: 5, claim_expiry_days: 30 });
  });

  it('refuses bad settings with nothing written', async () => {
    const { account, client } = await steppedUp();
    const before = await ok('GET', '/gift-card/getSettings', undefined, account.liveKey);
    expectFailure(await client.call('POST', '/rewards/settings', { body: { min_amount: 600 } }), 422, 'invalid_value');
    expectFailure(await client.call('POST', '/rewards/settings', { body: { min_amount: 0 } }), 422, 'invalid_value');
    expectFailure(await client.call('POST', '/rewards/settings', { body: { min_amount: 2.345 } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/rewards/settings', { body: { provider_mode: 'magic' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/rewards/settings', { body: { claim_expiry_days: 0 } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/rewards/settings', { body: { velocity_limits_enabled: 'yes' } }), 400, 'invalid_parameter');
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.liveKey)).to.deep.equal(before);
    expect(await stack.models.GiftSettings.count({ where: { account_id: account.accountId } })).to.equal(0);
  });

  it('sets and removes spend rules; the answer is the key API’s getRules', async () => {
    const { account, client } = await steppedUp();
    expect(expectSuccess(await client.call('GET', '/rewards/rules'))).to.deep.equal({ enforced: true, currency: 'USD', rules: [] });
    const set = expectSuccess(await client.call('POST', '/rewards/rules', { body: { period: 'week', limit: 1000 } })) as Json;
    expect((set.rules as Json[]).map((r) => [r.period, r.limit, r.used, r.remaining])).to.deep.equal([['week', 1000, 0, 1000]]);
    expectSuccess(await client.call('POST', '/rewards/rules', { body: { period: 'day', limit: 99.99 } }));
    expect(expectSuccess(await client.call('GET', '/rewards/rules'))).to.deep.equal(await ok('GET', '/gift-card/getRules', undefined, account.liveKey));
    const removed = expectSuccess(await client.call('POST', '/rewards/rules', { body: { period: 'week', limit: 0 } })) as Json;
    expect((removed.rules as Json[]).map((r) => r.period)).to.deep.equal(['day']);
    // Bad input: nothing changes.
    expectFailure(await client.call('POST', '/rewards/rules', { body: { period: 'year', limit: 5 } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/rewards/rules', { body: { period: 'day', limit: -1 } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/rewards/rules', { body: { period: 'day' } }), 422, 'missing_field');
    expect((await stack.models.GiftRule.findAll({ where: { account_id: account.accountId } })).map((r) => [r.period, r.limit_cents])).to.deep.equal([['day', 9999]]);
  });

  it('uploads codes (the file’s text): added, duplicates, invalid lines; inventory as the key API’s rewardInventory', async () => {
    const { account, client } = await signedInConsole(stack);
    const tag = `${process.pid}-${Date.now()}`;
    const text = `\uFEFFAAA-${tag}-0001,1234\r\nBBB-${tag}-0002,2030-12-31\n\nbbb ${tag} 0002\nnot,a,code,line\nCCC-${tag}-0003,,2029-02-30\n`;
    const result = expectSuccess(await client.call('POST', '/rewards/codes', { body: { brand: 'Acme', denomination: 25, text } }));
    expect(result).to.deep.equal({ added: 2, duplicates: 1, invalid_lines: [5, 6] });
    // Again: every code is a duplicate now.
    expect(expectSuccess(await client.call('POST', '/rewards/codes', { body: { brand: 'Acme', denomination: 25, text: `AAA-${tag}-0001` } }))).to.deep.equal({ added: 0, duplicates: 1, invalid_lines: [] });
    const inventory = expectSuccess(await client.call('GET', '/rewards/inventory'));
    expect(inventory).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 2, assigned: 0 }]);
    expect(inventory).to.deep.equal(await ok('GET', '/gift-card/rewardInventory', undefined, account.liveKey));
    // Codes never come back in an answer.
    expect(JSON.stringify(inventory)).not.to.include(`AAA-${tag}`);
  });

  it('refuses a bad upload with nothing written', async () => {
    const { account, client } = await signedInConsole(stack);
    const count = () => stack.models.GiftCode.count({ where: { account_id: account.accountId } });
    expectFailure(await client.call('POST', '/rewards/codes', { body: { brand: 'A:B', denomination: 25, text: 'CODE-123456789' } }), 422, 'invalid_value');
    expectFailure(await client.call('POST', '/rewards/codes', { body: { brand: 'Acme', denomination: 0, text: 'CODE-123456789' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/rewards/codes', { body: { brand: 'Acme', denomination: 10.001, text: 'CODE-123456789' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/rewards/codes', { body: { brand: 'Acme', denomination: 25 } }), 422, 'missing_field');
    expectFailure(await client.call('POST', '/rewards/codes', { body: { brand: 'Acme', denomination: 25, text: 5 } }), 400, 'invalid_parameter');
    expect(await count()).to.equal(0);
  });

  /** A code upload as a multipart form, as the page's file input posts it. */
  const codeForm = (fields: Record<string, string>, file?: string) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    if (file !== undefined) form.set('file', new Blob([file], { type: 'text/plain' }), 'codes.txt');
    return form;
  };

  it('uploads codes as a multipart file (brand, denomination, file), as JSON answers', async () => {
    const { account, client } = await signedInConsole(stack);
    const tag = `${process.pid}-${Date.now()}`;
    const file = `MP-${tag}-0001,1234\nMP-${tag}-0002\nmp ${tag} 0002\nnot,a,code,line\n`;
    expect(expectSuccess(await client.call('POST', '/rewards/codes', { raw: codeForm({ brand: 'Acme', denomination: '10.50' }, file) }))).to.deep.equal({ added: 2, duplicates: 1, invalid_lines: [4] });
    const codes = await stack.models.GiftCode.findAll({ where: { account_id: account.accountId } });
    expect(codes.map((c) => [c.brand, c.denomination_cents]).sort()).to.deep.equal([['Acme', 1050], ['Acme', 1050]]);
    expect(expectSuccess(await client.call('GET', '/rewards/inventory'))).to.deep.equal([{ brand: 'Acme', denomination: 10.5, currency: 'USD', available: 2, assigned: 0 }]);
  });

  it('refuses a bad multipart upload in the envelope with nothing written', async () => {
    const { account, client } = await signedInConsole(stack);
    const count = () => stack.models.GiftCode.count({ where: { account_id: account.accountId } });
    expectFailure(await client.call('POST', '/rewards/codes', { raw: 'no parts here', headers: { 'Content-Type': 'multipart/form-data; boundary=x' } }), 400, 'malformed_form');
    expect(expectFailure(await client.call('POST', '/rewards/codes', { raw: codeForm({ brand: 'Acme', denomination: '25' }) }), 422, 'missing_field')).to.deep.equal(['file is required']);
    expectFailure(await client.call('POST', '/rewards/codes', { raw: codeForm({ brand: 'Acme', denomination: '25' }, '') }), 422, 'missing_field');
    expectFailure(await client.call('POST', '/rewards/codes', { raw: codeForm({ denomination: '25' }, 'CODE-123456789') }), 422, 'missing_field');
    expectFailure(await client.call('POST', '/rewards/codes', { raw: codeForm({ brand: 'Acme', denomination: 'ten' }, 'CODE-123456789') }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/rewards/codes', { raw: codeForm({ brand: 'Acme', denomination: '25' }, 'CODE-123456789'), csrf: null }), 403, 'csrf_invalid');
    expectFailure(await client.call('POST', '/rewards/codes', { raw: codeForm({ brand: 'Acme', denomination: '25' }, 'CODE-123456789'), origin: 'https://evil.example' }), 403, 'csrf_invalid');
    expect(await count()).to.equal(0);
  });

  it('lists orders as the key API’s listOrders; another account’s campaign in the filter is 404', async () => {
    const { account, client } = await signedInConsole(stack);
    const other = await newAccount(stack.models);
    const first = await addOrder(account.accountId, { created_at: new Date('2026-03-01T00:00:00.000Z') });
    const second = await addOrder(account.accountId, { payment_status: 'paid', fulfillment_status: 'fulfilled', code_last4: 'WXYZ', fulfilled_at: new Date('2026-03-02T00:00:01.000Z'), created_at: new Date('2026-03-02T00:00:00.000Z') });
    await addOrder(other.accountId);
    const res = await client.call('GET', '/rewards/orders?perPage=1');
    expect((expectSuccess(res) as Json[]).map((o) => o.id)).to.deep.equal([second.id]);
    expect(res.body.meta).to.deep.equal({ page: 1, perPage: 1, total: 2, totalPages: 2 });
    const all = expectSuccess(await client.call('GET', '/rewards/orders')) as Json[];
    expect(all.map((o) => o.id)).to.deep.equal([second.id, first.id]);
    expect(all).to.deep.equal(await ok('GET', '/gift-card/listOrders', undefined, account.liveKey));
    expect(all[0]).to.include({ code_masked: '****WXYZ', payment_status: 'paid' });
    expect((expectSuccess(await client.call('GET', '/rewards/orders?payment_status=pending')) as Json[]).map((o) => o.id)).to.deep.equal([first.id]);
    const theirs = (expectSuccess(await call(stack.url, 'POST', '/v2/api/campaign/save', { key: other.liveKey, body: { campaign: { campaign_name: 'Theirs' } } })) as Json).id as number;
    expectFailure(await client.call('GET', `/rewards/orders?campaign_id=${theirs}`), 404, 'not_found');
    expectFailure(await client.call('GET', '/rewards/orders?payment_status=lost'), 400, 'invalid_parameter');
    expectFailure(await client.call('GET', '/rewards/orders?perPage=101'), 400, 'invalid_parameter');
  });

  it('works on the sandbox twin in sandbox mode', async () => {
    const { account, client } = await signedInConsole(stack);
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    expectSuccess(await client.call('POST', '/rewards/rules', { body: { period: 'month', limit: 10 } }));
    expect((await ok('GET', '/gift-card/getRules', undefined, account.sandboxKey)).rules).to.have.length(1);
    expect((await ok('GET', '/gift-card/getRules', undefined, account.liveKey)).rules).to.have.length(0);
  });

  it('needs a session (401) and, to write, the CSRF token (403)', async () => {
    const { account, client } = await signedInConsole(stack);
    const anonymous = consoleClient(stack.url);
    for (const path of ['/rewards/settings', '/rewards/rules', '/rewards/inventory', '/rewards/orders']) {
      expectFailure(await anonymous.call('GET', path), 401, 'session_required');
    }
    expectFailure(await anonymous.call('POST', '/rewards/codes', { body: { brand: 'Acme', denomination: 25, text: 'CODE-123456789' } }), 401, 'session_required');
    expectFailure(await client.call('POST', '/rewards/settings', { body: { min_amount: 7 }, csrf: null }), 403, 'csrf_invalid');
    expectFailure(await client.call('POST', '/rewards/rules', { body: { period: 'day', limit: 7 }, csrf: null }), 403, 'csrf_invalid');
    expectFailure(await client.call('POST', '/rewards/codes', { body: { brand: 'Acme', denomination: 25, text: 'CODE-123456789' }, origin: 'https://evil.example' }), 403, 'csrf_invalid');
    expect(await stack.models.GiftSettings.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await stack.models.GiftRule.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await stack.models.GiftCode.count({ where: { account_id: account.accountId } })).to.equal(0);
    // A key is not a session.
    expectFailure(await call(stack.url, 'GET', '/v2/console/api/rewards/settings', { key: account.liveKey }), 401, 'session_required');
  });
});
