import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { InferCreationAttributes } from 'sequelize';
import type { GiftOrder } from '../../models/Gift.ts';
import { manualProductId } from '../../services/rewards/catalog.ts';
import { aadOf, codeHmacs, last4Of } from '../../services/rewards/crypto.ts';
import { keysOrThrow, seal } from '../../lib/sealing.ts';
import { setRule } from '../../services/rewards/settings.ts';
import { reserveSpend } from '../../services/rewards/spend.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;
type OrderFields = Partial<InferCreationAttributes<GiftOrder>>;

const ENDPOINTS = ['getSettings', 'listProducts', 'listOrders', 'getRules', 'rewardInventory', 'analytics'];

describe('rewards: the six gift-card endpoints', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let counter = 0;

  before(async () => {
    stack = await testStack();
  });

  const { api, ok } = apiClient(() => stack);
  const keys = () => keysOrThrow(stack.services.dataKeys);

  /** A pool code as `cardsvc rewards add-codes` stores it: encrypted, hashed, its last 4 kept from 12 characters. */
  async function addCode(accountId: number, brand: string, cents: number, code: string, fields: { expires_on?: string | null; order_id?: number | null } = {}) {
    const sealed = seal(keys(), aadOf(accountId, manualProductId(brand, cents)), code);
    return stack.models.GiftCode.create({
      account_id: accountId, brand, denomination_cents: cents, currency: 'USD', code_ciphertext: sealed.ciphertext, pin_ciphertext: null,
      key_id: sealed.keyId, code_hmac: codeHmacs(keys(), code)[0]!, code_last4: last4Of(code), expires_on: fields.expires_on ?? null,
      order_id: fields.order_id ?? null, ...(fields.order_id ? { assigned_at: new Date() } : {}),
    });
  }

  async function addOrder(accountId: number, fields: OrderFields = {}) {
    return stack.models.GiftOrder.create({
      account_id: accountId, order_key: `test:${process.pid}:${accountId}:${++counter}`, scope: 'widget', campaign_id: null, automation_id: null,
      send_id: null, send_recipient_id: null, member_id: null, recipient_name: 'Rita Reyes', recipient_email: 'rita@example.com',
      product_id: 'manual:Acme:25', brand: 'Acme', amount_cents: 2500, currency: 'USD', source: 'manual', spend_day: '2026-03-18', ...fields,
    });
  }

  it('a new account: manual mode, USD, 1–500, limits enforced with no rules, 365-day claims; empty lists and zero analytics', async () => {
    const account = await newAccount(stack.models);
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.liveKey)).to.deep.equal({
      provider_mode: 'manual', provider: null, currency: 'USD', min_amount: 1, max_amount: 500, velocity_limits_enabled: true, claim_expiry_days: 365,
    });
    expect(await ok('GET', '/gift-card/getRules', undefined, account.liveKey)).to.deep.equal({ enforced: true, currency: 'USD', rules: [] });
    expect(await ok('GET', '/gift-card/listProducts', undefined, account.liveKey)).to.deep.equal([]);
    expect(await ok('GET', '/gift-card/rewardInventory', undefined, account.liveKey)).to.deep.equal([]);
    const orders = await api('GET', '/gift-card/listOrders', undefined, account.liveKey);
    expect(expectSuccess(orders)).to.deep.equal([]);
    expect(orders.body.meta).to.deep.equal({ page: 1, perPage: 20, total: 0, totalPages: 0 });
    const zero = { count: 0, total: 0 };
    expect(await ok('GET', '/gift-card/analytics', undefined, account.liveKey)).to.deep.equal({
      currency: 'USD',
      orders: zero,
      payment_status: { pending: zero, paid: zero, failed: zero, refunded: zero },
      fulfillment_status: { pending: zero, fulfilled: zero, failed: zero, canceled: zero },
      claim_status: { unclaimed: zero, claimed: zero, expired: zero },
      scope: { widget: zero, campaign: zero, automation: zero },
      spend: 0,
      claim_rate: 0,
    });
    // The sandbox has its own settings, with the same defaults.
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.sandboxKey)).to.deep.include({ provider_mode: 'manual', provider: null, currency: 'USD' });
  });

  it('needs a key (401) with gift_cards: view (403 otherwise) on every endpoint', async () => {
    const account = await newAccount(stack.models);
    const other = await newKey(stack.models, account.accountId, { campaigns: 'manage', sends: 'manage' });
    const viewer = await newKey(stack.models, account.accountId, { gift_cards: 'view' });
    for (const path of ENDPOINTS) {
      const anonymous = await call(stack.url, 'GET', `/v2/api/gift-card/${path}`);
      expect(anonymous.status, path).to.equal(401);
      expect(anonymous.headers.get('www-authenticate'), path).to.match(/^Bearer/);
      expectFailure(await api('GET', `/gift-card/${path}`, undefined, other.key), 403, 'key_out_of_scope');
      expectSuccess(await api('GET', `/gift-card/${path}`, undefined, viewer.key));
    }
  });

  it('listProducts (manual): one product per brand and face value with the codes left; country leaves them; a bad country is 400', async () => {
    const account = await newAccount(stack.models);
    const order = await addOrder(account.accountId);
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0001');
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0002');
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0003', { order_id: order.id });
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0004', { expires_on: '2020-01-01' });
    await addCode(account.accountId, 'Acme', 1050, 'ACME-SHORT');
    await addCode(account.accountId, 'Books', 500, 'BOOKS-0000-0000-0001', { expires_on: '2099-12-31' });
    const products = await ok('GET', '/gift-card/listProducts', undefined, account.liveKey);
    expect(products).to.deep.equal([
      { product_id: 'manual:Acme:10.50', brand: 'Acme', name: 'Acme 10.50 USD', denomination: 10.5, min_amount: 10.5, max_amount: 10.5, currency: 'USD', countries: [], available: 1 },
      { product_id: 'manual:Acme:25', brand: 'Acme', name: 'Acme 25 USD', denomination: 25, min_amount: 25, max_amount: 25, currency: 'USD', countries: [], available: 2 },
      { product_id: 'manual:Books:5', brand: 'Books', name: 'Books 5 USD', denomination: 5, min_amount: 5, max_amount: 5, currency: 'USD', countries: [], available: 1 },
    ]);
    expect(await ok('GET', '/gift-card/listProducts?country=gb', undefined, account.liveKey)).to.deep.equal(products);
    for (const bad of ['XX', 'UK', 'GBR', '1', '']) expectFailure(await api('GET', `/gift-card/listProducts?country=${bad}`, undefined, account.liveKey), 400, 'invalid_parameter');
    // Another account sees none of them.
    expect(await ok('GET', '/gift-card/listProducts', undefined, (await newAccount(stack.models)).liveKey)).to.deep.equal([]);
  });

  it('listProducts (provider): the sandbox uses the simulated catalog (country filters, any case); a live account without REWARDS_PROVIDER has none', async () => {
    const account = await newAccount(stack.models);
    await stack.models.GiftSettings.upsert({ account_id: account.sandboxAccountId, provider_mode: 'provider' });
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.sandboxKey)).to.deep.include({ provider_mode: 'provider', provider: 'simulated' });
    const all = await ok<Json[]>('GET', '/gift-card/listProducts', undefined, account.sandboxKey);
    expect(all.map((p) => p.product_id)).to.deep.equal(['simulated:AMAZON-US', 'simulated:STARBUCKS-US', 'simulated:TARGET-US', 'simulated:AMAZON-UK', 'simulated:VISA-GLOBAL']);
    expect(all[3]).to.deep.equal({
      product_id: 'simulated:AMAZON-UK', brand: 'Amazon', name: 'Amazon.co.uk Gift Card', denomination: null, min_amount: 1, max_amount: 500, currency: 'USD',
      countries: ['GB', 'IE'], available: null,
    });
    for (const country of ['GB', 'gb', ' Gb ']) {
      const gb = await ok<Json[]>('GET', `/gift-card/listProducts?country=${encodeURIComponent(country)}`, undefined, account.sandboxKey);
      expect(gb.map((p) => p.product_id), country).to.deep.equal(['simulated:AMAZON-UK', 'simulated:VISA-GLOBAL']);
    }
    expect(await ok('GET', '/gift-card/listProducts?country=JP', undefined, account.sandboxKey)).to.deep.equal([]);
    // The live account in provider mode: no provider configured in the suite.
    await stack.models.GiftSettings.upsert({ account_id: account.accountId, provider_mode: 'provider' });
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.liveKey)).to.deep.include({ provider_mode: 'provider', provider: null });
    expect(await ok('GET', '/gift-card/listProducts', undefined, account.liveKey)).to.deep.equal([]);
    expect(await ok('GET', '/gift-card/listProducts?country=US', undefined, account.liveKey)).to.deep.equal([]);
  });

  it('getSettings shows the stored settings in currency units', async () => {
    const account = await newAccount(stack.models);
    await stack.models.GiftSettings.upsert({ account_id: account.accountId, provider_mode: 'manual', min_cents: 550, max_cents: 12_345, velocity_limits_enabled: false, claim_expiry_days: 30 });
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.liveKey)).to.deep.equal({
      provider_mode: 'manual', provider: null, currency: 'USD', min_amount: 5.5, max_amount: 123.45, velocity_limits_enabled: false, claim_expiry_days: 30,
    });
  });

  it('rewardInventory: per brand, denomination and currency, codes available (unassigned, unexpired) and assigned', async () => {
    const account = await newAccount(stack.models);
    const [o1, o2] = [await addOrder(account.accountId), await addOrder(account.accountId)];
    await addCode(account.accountId, 'Zeta', 1000, 'ZETA-0000-0000-0001');
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0001');
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0002', { order_id: o1.id });
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0003', { order_id: o2.id, expires_on: '2020-01-01' });
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0004', { expires_on: '2020-01-01' });
    await addCode(account.accountId, 'Acme', 2500, 'ACME-0000-0000-0005', { expires_on: '2099-01-01' });
    await addCode(account.accountId, 'Acme', 500, 'ACME-5');
    await addCode((await newAccount(stack.models)).accountId, 'Acme', 2500, 'ACME-0000-0000-0001');
    expect(await ok('GET', '/gift-card/rewardInventory', undefined, account.liveKey)).to.deep.equal([
      { brand: 'Acme', denomination: 5, currency: 'USD', available: 1, assigned: 0 },
      { brand: 'Acme', denomination: 25, currency: 'USD', available: 2, assigned: 2 },
      { brand: 'Zeta', denomination: 10, currency: 'USD', available: 1, assigned: 0 },
    ]);
  });

  describe('listOrders', () => {
    let account: TestAccount;
    let other: TestAccount;
    let campaignId: number;
    let automationId: number;
    let foreignCampaignId: number;
    let foreignAutomationId: number;
    let publicSendId: string;
    const ids: Record<string, number> = {};
    const secrets: string[] = [];

    const list = async (query = '') => {
      const res = await api('GET', `/gift-card/listOrders${query}`, undefined, account.liveKey);
      return { data: expectSuccess(res) as Json[], meta: res.body.meta as Json, text: JSON.stringify(res.body) };
    };
    const listIds = async (query: string) => (await list(query)).data.map((o) => o.id);

    before(async () => {
      account = await newAccount(stack.models, 'pro');
      other = await newAccount(stack.models, 'pro');
      const save = async (acct: TestAccount, path: string, body: Json) => (await ok('POST', path, body, acct.liveKey)).id as number;
      campaignId = await save(account, '/campaign/save', { campaign: { campaign_name: 'Spring' } });
      automationId = await save(account, '/automation/save', { automation: { automation_name: 'Birthdays', event_type: 'birthday' } });
      foreignCampaignId = await save(other, '/campaign/save', { campaign: { campaign_name: 'Theirs' } });
      foreignAutomationId = await save(other, '/automation/save', { automation: { automation_name: 'Theirs', event_type: 'birthday' } });
      const widget = await insertWidget(stack.models, account.accountId);
      const ecard = await insertEcard(stack.models, account.accountId, widget.id);
      const send = await stack.models.Send.create({
        send_id: crypto.randomUUID(), account_id: account.accountId, ecard_id: ecard.id, widget_id: widget.id, mode: 'email', status: 'sent', sandbox: false,
        sender_name: 'Sam', sender_email: 'sam@example.com', personal_message: null, locale: 'en', merge_tags: null, override_props: null, send_at: new Date(),
        stat_vanity_id: `gift${process.pid}${Date.now()}`, quota_month: null, quota_count: 0, workflow_started: true,
      });
      publicSendId = send.send_id;

      const keys = keysOrThrow(stack.services.dataKeys);
      const longCode = 'GIFT-LONG-CODE-WXYZ';
      const providerCode = 'SIM-SHORT';
      secrets.push(longCode, providerCode, 'PIN-9911');
      const pool = await addCode(account.accountId, 'Acme', 2500, longCode);
      const shortPool = await addCode(account.accountId, 'Acme', 2500, 'SHORT-1');
      const sealedProvider = seal(keys, aadOf(account.accountId, 'simulated:AMAZON-US'), providerCode);
      const sealedPin = seal(keys, aadOf(account.accountId, 'simulated:AMAZON-US'), 'PIN-9911');
      secrets.push(sealedProvider.ciphertext, sealedPin.ciphertext, pool.code_ciphertext, shortPool.code_ciphertext);
      const at = (s: string) => new Date(s);
      const claimHash = randomBytes(32).toString('hex');
      secrets.push(claimHash);

      // Oldest first; each a different mix of statuses, scopes and references.
      ids.claimedWidget = (await addOrder(account.accountId, {
        send_id: send.id, payment_status: 'paid', fulfillment_status: 'fulfilled', claim_status: 'claimed', code_id: pool.id, code_last4: 'WXYZ',
        claim_token_hash: claimHash, claim_last4: 'q9Zk', fulfilled_at: at('2026-03-01T10:00:01.000Z'), claimed_at: at('2026-03-02T08:00:00.000Z'),
        expires_at: at('2027-03-01T10:00:01.000Z'), created_at: at('2026-03-01T10:00:00.000Z'),
      })).id;
      await pool.update({ order_id: ids.claimedWidget, assigned_at: new Date() });
      ids.shortCampaign = (await addOrder(account.accountId, {
        scope: 'campaign', campaign_id: campaignId, payment_status: 'paid', fulfillment_status: 'fulfilled', claim_status: 'unclaimed', code_id: shortPool.id,
        code_last4: null, claim_token_hash: randomBytes(32).toString('hex'), claim_last4: 'Ab-_', fulfilled_at: at('2026-03-05T00:00:00.000Z'),
        expires_at: at('2027-03-05T00:00:00.000Z'), created_at: at('2026-03-05T00:00:00.000Z'),
      })).id;
      await shortPool.update({ order_id: ids.shortCampaign, assigned_at: new Date() });
      ids.providerAutomation = (await addOrder(account.accountId, {
        scope: 'automation', automation_id: automationId, product_id: 'simulated:AMAZON-US', brand: 'Amazon', amount_cents: 1042, source: 'simulated',
        payment_status: 'paid', fulfillment_status: 'fulfilled', claim_status: 'expired', code_ciphertext: sealedProvider.ciphertext, pin_ciphertext: sealedPin.ciphertext,
        key_id: sealedProvider.keyId, code_last4: null, fulfilled_at: at('2026-03-10T12:00:00.000Z'), expires_at: at('2026-03-11T12:00:00.000Z'),
        created_at: at('2026-03-10T12:00:00.000Z'),
      })).id;
      ids.refundedCampaign = (await addOrder(account.accountId, {
        scope: 'campaign', campaign_id: campaignId, payment_status: 'refunded', fulfillment_status: 'canceled', claim_status: 'unclaimed', code_id: null,
        code_last4: '4321', fulfilled_at: at('2026-03-15T00:00:01.000Z'), created_at: at('2026-03-15T00:00:00.000Z'),
      })).id;
      ids.failedAutomation = (await addOrder(account.accountId, {
        scope: 'automation', automation_id: automationId, payment_status: 'failed', fulfillment_status: 'failed', failure_reason: 'out_of_stock',
        created_at: at('2026-03-20T00:00:00.000Z'),
      })).id;
      ids.pendingWidget = (await addOrder(account.accountId, { recipient_name: null, recipient_email: null, created_at: at('2026-03-25T00:00:00.000Z') })).id;
      // Another account's order never shows.
      await addOrder(other.accountId, { scope: 'campaign', campaign_id: foreignCampaignId, created_at: at('2026-03-12T00:00:00.000Z') });
    });

    it('lists the account’s orders newest first with the documented fields, masked codes and links, and no secret', async () => {
      const { data, meta, text } = await list();
      expect(meta).to.deep.equal({ page: 1, perPage: 20, total: 6, totalPages: 1 });
      expect(data.map((o) => o.id)).to.deep.equal([ids.pendingWidget, ids.failedAutomation, ids.refundedCampaign, ids.providerAutomation, ids.shortCampaign, ids.claimedWidget]);
      const byId = new Map(data.map((o) => [o.id, o]));
      expect(byId.get(ids.claimedWidget)).to.deep.equal({
        id: ids.claimedWidget, scope: 'widget', campaign_id: null, automation_id: null, send_id: publicSendId, recipient_name: 'Rita Reyes',
        recipient_email: 'rita@example.com', product_id: 'manual:Acme:25', brand: 'Acme', amount: 25, currency: 'USD', payment_status: 'paid',
        fulfillment_status: 'fulfilled', claim_status: 'claimed', code_masked: '****WXYZ', claim_url_masked: '****q9Zk', createdat: '2026-03-01T10:00:00.000Z',
        fulfilledat: '2026-03-01T10:00:01.000Z', claimedat: '2026-03-02T08:00:00.000Z', expiresat: '2027-03-01T10:00:01.000Z',
      });
      // A code under 12 characters is masked as **** alone, whether from the pool or a provider.
      expect(byId.get(ids.shortCampaign)).to.deep.include({ campaign_id: campaignId, code_masked: '****', claim_url_masked: '****Ab-_', send_id: null });
      expect(byId.get(ids.providerAutomation)).to.deep.include({
        automation_id: automationId, product_id: 'simulated:AMAZON-US', brand: 'Amazon', amount: 10.42, code_masked: '****', claim_url_masked: null,
        claim_status: 'expired', expiresat: '2026-03-11T12:00:00.000Z',
      });
      // A refunded order had a code (masked still); a failed or pending one never had one.
      expect(byId.get(ids.refundedCampaign)).to.deep.include({ payment_status: 'refunded', fulfillment_status: 'canceled', code_masked: '****4321', claim_url_masked: null });
      expect(byId.get(ids.failedAutomation)).to.deep.include({ code_masked: null, claim_url_masked: null, fulfilledat: null, claimedat: null, expiresat: null });
      expect(byId.get(ids.pendingWidget)).to.deep.include({ recipient_name: null, recipient_email: null, code_masked: null, payment_status: 'pending' });
      for (const secret of secrets) expect(text).not.to.include(secret);
      expect(text).not.to.match(/ciphertext|_hash|"pin|key_id|failure_reason|order_key/i);
    });

    it('filters by each status, scope, campaign and automation, alone and together', async () => {
      expect(await listIds('?payment_status=paid')).to.deep.equal([ids.providerAutomation, ids.shortCampaign, ids.claimedWidget]);
      expect(await listIds('?payment_status=refunded')).to.deep.equal([ids.refundedCampaign]);
      expect(await listIds('?payment_status=pending')).to.deep.equal([ids.pendingWidget]);
      expect(await listIds('?fulfillment_status=failed')).to.deep.equal([ids.failedAutomation]);
      expect(await listIds('?fulfillment_status=canceled')).to.deep.equal([ids.refundedCampaign]);
      expect(await listIds('?fulfillment_status=fulfilled')).to.deep.equal([ids.providerAutomation, ids.shortCampaign, ids.claimedWidget]);
      expect(await listIds('?claim_status=claimed')).to.deep.equal([ids.claimedWidget]);
      expect(await listIds('?claim_status=expired')).to.deep.equal([ids.providerAutomation]);
      expect(await listIds('?claim_status=unclaimed')).to.deep.equal([ids.pendingWidget, ids.failedAutomation, ids.refundedCampaign, ids.shortCampaign]);
      expect(await listIds('?scope=widget')).to.deep.equal([ids.pendingWidget, ids.claimedWidget]);
      expect(await listIds('?scope=campaign')).to.deep.equal([ids.refundedCampaign, ids.shortCampaign]);
      expect(await listIds('?scope=automation')).to.deep.equal([ids.failedAutomation, ids.providerAutomation]);
      expect(await listIds(`?campaign_id=${campaignId}`)).to.deep.equal([ids.refundedCampaign, ids.shortCampaign]);
      expect(await listIds(`?campaignId=${campaignId}`)).to.deep.equal([ids.refundedCampaign, ids.shortCampaign]);
      expect(await listIds(`?automation_id=${automationId}`)).to.deep.equal([ids.failedAutomation, ids.providerAutomation]);
      expect(await listIds(`?campaign_id=${campaignId}&payment_status=paid&claim_status=unclaimed`)).to.deep.equal([ids.shortCampaign]);
      expect(await listIds(`?automation_id=${automationId}&scope=widget`)).to.deep.equal([]);
      // Unknown fields are ignored; a value of the wrong kind is 400.
      expect(await listIds('?sortBy=brand&colour=red')).to.have.length(6);
      for (const bad of ['payment_status=settled', 'fulfillment_status=done', 'claim_status=open', 'scope=email', 'campaign_id=abc', 'automation_id=-1', 'dateFrom=yesterday', 'dateTo=2026-03-01']) {
        expectFailure(await api('GET', `/gift-card/listOrders?${bad}`, undefined, account.liveKey), 400, 'invalid_parameter');
      }
    });

    it('dateFrom and dateTo bound createdat inclusively', async () => {
      expect(await listIds('?dateFrom=2026-03-10T12:00:00.000Z')).to.deep.equal([ids.pendingWidget, ids.failedAutomation, ids.refundedCampaign, ids.providerAutomation]);
      expect(await listIds('?dateTo=2026-03-10T12:00:00Z')).to.deep.equal([ids.providerAutomation, ids.shortCampaign, ids.claimedWidget]);
      expect(await listIds('?dateFrom=2026-03-05T00:00:00Z&dateTo=2026-03-15T00:00:00Z')).to.deep.equal([ids.refundedCampaign, ids.providerAutomation, ids.shortCampaign]);
      // Offsets count: 01:00+01:00 is midnight UTC.
      expect(await listIds(`?dateFrom=${encodeURIComponent('2026-03-20T01:00:00+01:00')}&dateTo=${encodeURIComponent('2026-03-20T01:00:00+01:00')}`)).to.deep.equal([ids.failedAutomation]);
      expect(await listIds('?dateFrom=2026-04-01T00:00:00Z')).to.deep.equal([]);
      expect(await listIds('?dateFrom=2026-03-20T00:00:00Z&scope=automation')).to.deep.equal([ids.failedAutomation]);
    });

    it('pages with page and perPage (default 20, at most 100)', async () => {
      const first = await list('?perPage=4');
      expect(first.data.map((o) => o.id)).to.deep.equal([ids.pendingWidget, ids.failedAutomation, ids.refundedCampaign, ids.providerAutomation]);
      expect(first.meta).to.deep.equal({ page: 1, perPage: 4, total: 6, totalPages: 2 });
      const second = await list('?perPage=4&page=2');
      expect(second.data.map((o) => o.id)).to.deep.equal([ids.shortCampaign, ids.claimedWidget]);
      expect(second.meta).to.deep.equal({ page: 2, perPage: 4, total: 6, totalPages: 2 });
      const beyond = await list('?perPage=4&page=3');
      expect(beyond.data).to.deep.equal([]);
      expect(beyond.meta).to.deep.equal({ page: 3, perPage: 4, total: 6, totalPages: 2 });
      expect((await list('?perPage=100')).meta).to.deep.include({ perPage: 100, total: 6 });
      const filtered = await list('?scope=campaign&perPage=1&page=2');
      expect(filtered.data.map((o) => o.id)).to.deep.equal([ids.shortCampaign]);
      expect(filtered.meta).to.deep.equal({ page: 2, perPage: 1, total: 2, totalPages: 2 });
      for (const bad of ['perPage=101', 'perPage=0', 'page=0', 'page=x']) expectFailure(await api('GET', `/gift-card/listOrders?${bad}`, undefined, account.liveKey), 400, 'invalid_parameter');
    });

    it('ownerid or user_id → 400 account_from_key, whatever else the query holds', async () => {
      for (const query of ['ownerid=1', `ownerid=${account.accountId}`, 'user_id=7', 'userId=7', 'owner_id=1', 'ownerid=', 'user_id=1&page=0', 'scope=widget&ownerid=1&ownerid=2']) {
        const messages = expectFailure(await api('GET', `/gift-card/listOrders?${query}`, undefined, account.liveKey), 400, 'account_from_key');
        expect(messages[0]).to.match(/^(ownerid|user_id) must not be passed/);
      }
    });

    it('another account’s or an unknown campaign_id or automation_id is 404', async () => {
      expectFailure(await api('GET', `/gift-card/listOrders?campaign_id=${foreignCampaignId}`, undefined, account.liveKey), 404, 'not_found');
      expectFailure(await api('GET', `/gift-card/listOrders?automation_id=${foreignAutomationId}`, undefined, account.liveKey), 404, 'not_found');
      expectFailure(await api('GET', '/gift-card/listOrders?campaign_id=999999999', undefined, account.liveKey), 404, 'not_found');
      expectFailure(await api('GET', '/gift-card/listOrders?automation_id=999999999', undefined, account.liveKey), 404, 'not_found');
      expectFailure(await api('GET', `/gift-card/listOrders?campaign_id=${campaignId}`, undefined, other.liveKey), 404, 'not_found');
      // The owner of each sees its own.
      expect((expectSuccess(await api('GET', `/gift-card/listOrders?campaign_id=${foreignCampaignId}`, undefined, other.liveKey)) as Json[]).map((o) => o.campaign_id)).to.deep.equal([foreignCampaignId]);
      expect(expectSuccess(await api('GET', `/gift-card/listOrders?automation_id=${foreignAutomationId}`, undefined, other.liveKey))).to.deep.equal([]);
      // The sandbox is another account: none of the live orders.
      expect(expectSuccess(await api('GET', '/gift-card/listOrders', undefined, account.sandboxKey))).to.deep.equal([]);
      expectFailure(await api('GET', `/gift-card/listOrders?campaign_id=${campaignId}`, undefined, account.sandboxKey), 404, 'not_found');
    });
  });

  it('getRules: each rule (day, week, month) with the current UTC period’s use, what remains and when it resets, enforced or not', async () => {
    const account = await newAccount(stack.models);
    // A Wednesday: the day resets at midnight, the week on Monday, the month on the 1st.
    const app = await extraApp({ now: () => new Date('2026-03-18T15:30:00.000Z') });
    await setRule(stack, account.accountId, 'month', 10_000);
    await setRule(stack, account.accountId, 'day', 1_000);
    await setRule(stack, account.accountId, 'week', 5_000);
    await stack.models.sequelize.transaction(async (transaction) => {
      // Unenforced reservations are recorded whatever the limits: 5 in an earlier week, 7 earlier this week, 11 today.
      for (const [day, cents] of [['2026-03-02', 500], ['2026-03-16', 700], ['2026-03-18', 1_100]] as const) {
        expect(await reserveSpend(stack, account.accountId, { cents, day, enforce: false }, transaction)).to.equal(null);
      }
    });
    const expected = (enforced: boolean) => ({
      enforced,
      currency: 'USD',
      rules: [
        { period: 'day', limit: 10, used: 11, remaining: 0, resets_at: '2026-03-19T00:00:00.000Z' },
        { period: 'week', limit: 50, used: 18, remaining: 32, resets_at: '2026-03-23T00:00:00.000Z' },
        { period: 'month', limit: 100, used: 23, remaining: 77, resets_at: '2026-04-01T00:00:00.000Z' },
      ],
    });
    expect(await apiClient(app.url, account.liveKey).ok('GET', '/gift-card/getRules')).to.deep.equal(expected(true));
    await stack.models.GiftSettings.upsert({ account_id: account.accountId, velocity_limits_enabled: false });
    expect(await apiClient(app.url, account.liveKey).ok('GET', '/gift-card/getRules')).to.deep.equal(expected(false));
    // A later week: the week's use starts again; the month's does not.
    const later = await extraApp({ now: () => new Date('2026-03-23T00:00:00.000Z') });
    expect((await apiClient(later.url, account.liveKey).ok<{ rules: Json[] }>('GET', '/gift-card/getRules')).rules.map((r) => [r.period, r.used, r.remaining])).to.deep.equal([
      ['day', 0, 10], ['week', 0, 50], ['month', 23, 77],
    ]);
    // A removed rule is no longer listed.
    await setRule(stack, account.accountId, 'week', 0);
    expect((await apiClient(app.url, account.liveKey).ok<{ rules: Json[] }>('GET', '/gift-card/getRules')).rules.map((r) => r.period)).to.deep.equal(['day', 'month']);
  });

  it('analytics: counts and face-value totals by each status and scope, spend (paid − refunded) and claim rate', async () => {
    const account = await newAccount(stack.models);
    const order = (scope: 'widget' | 'campaign' | 'automation', cents: number, payment: string, fulfillment: string, claim: string) =>
      addOrder(account.accountId, { scope, amount_cents: cents, payment_status: payment, fulfillment_status: fulfillment, claim_status: claim } as OrderFields);
    await order('widget', 2500, 'paid', 'fulfilled', 'claimed');
    await order('widget', 1050, 'paid', 'fulfilled', 'unclaimed');
    await order('campaign', 2000, 'paid', 'fulfilled', 'expired');
    await order('campaign', 3000, 'refunded', 'canceled', 'unclaimed');
    await order('automation', 1500, 'failed', 'failed', 'unclaimed');
    await order('automation', 500, 'pending', 'pending', 'unclaimed');
    await addOrder((await newAccount(stack.models)).accountId, { payment_status: 'paid', fulfillment_status: 'fulfilled', claim_status: 'claimed', amount_cents: 99_900 });
    expect(await ok('GET', '/gift-card/analytics', undefined, account.liveKey)).to.deep.equal({
      currency: 'USD',
      orders: { count: 6, total: 105.5 },
      payment_status: { pending: { count: 1, total: 5 }, paid: { count: 3, total: 55.5 }, failed: { count: 1, total: 15 }, refunded: { count: 1, total: 30 } },
      fulfillment_status: { pending: { count: 1, total: 5 }, fulfilled: { count: 3, total: 55.5 }, failed: { count: 1, total: 15 }, canceled: { count: 1, total: 30 } },
      claim_status: { unclaimed: { count: 4, total: 60.5 }, claimed: { count: 1, total: 25 }, expired: { count: 1, total: 20 } },
      scope: { widget: { count: 2, total: 35.5 }, campaign: { count: 2, total: 50 }, automation: { count: 2, total: 20 } },
      spend: 55.5,
      claim_rate: 0.3333,
    });
  });
});
