// Gifts bought from the simulated provider on send-ecard: a normal buy, a `.13` decline and a `.42` timeout that the
// dispatch activity's retry resolves. A live account in provider mode needs REWARDS_PROVIDER=simulated, so these
// run on an API and a worker of their own (own task queue: the stack's worker never takes these workflows); the
// sandbox always uses the simulated provider and writes its emails to mail_sink.
import { expect } from 'chai';
import type { Services } from '../../app/services.ts';
import { startWorker } from '../../app/runtime.ts';
import type { Models } from '../../models/index.ts';
import { updateSettings } from '../../services/rewards/settings.ts';
import { spendUsed } from '../../services/rewards/spend.ts';
import { sendWorkflowId } from '../../workflows/send-ecard/contract.ts';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { claimLinkIn } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { extraApp, testConfig, testModels, testServices, type ExtraApp } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';

type Json = Record<string, unknown>;

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;
const SIM_CODE = /SIM-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}/;

describe('rewards: gifts bought from the simulated provider', function () {
  this.timeout(60_000);
  let models: Models;
  let services: Services;
  let smtp: SmtpTestServer;
  let app: ExtraApp;
  let account: TestAccount;
  let ecardId: number;

  before(async () => {
    const env = { TEMPORAL_TASK_QUEUE: `cardsvc-rewards-provider-${process.pid}`, REWARDS_PROVIDER: 'simulated' };
    models = await testModels();
    smtp = await testSmtpServer();
    services = await testServices(await testConfig(env));
    const worker = await startWorker(services, { background: false });
    after(() => worker.stop());
    app = await extraApp({ env });
  });
  beforeEach(async () => {
    account = await newAccount(models, 'pro');
    await updateSettings(services, account.accountId, { provider_mode: 'provider' });
    const widget = await insertWidget(models, account.accountId);
    ecardId = (await insertEcard(models, account.accountId, widget.id)).id;
  });

  const send = (body: Json, key = account.liveKey) => call(app.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key, body });
  const gift = (amount: number) => ({ ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: address('gift'), giftCard: { product_id: 'simulated:AMAZON-US', amount } });
  const ordersOf = (accountId: number) => models.GiftOrder.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']] });
  const providerRows = (accountId: number) => models.SimulatedProviderOrder.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']] });
  /** The claim page's POST (on this API: the worker's PUBLIC_BASE_URL is not served), which reveals the code. */
  const reveal = async (link: string) => {
    const token = link.slice(link.lastIndexOf('/') + 1);
    const res = await fetch(`${app.url}/g/${token}`, { method: 'POST' });
    expect(res.status).to.equal(200);
    return res.text();
  };
  const today = () => new Date().toISOString().slice(0, 10);

  it('a live account with REWARDS_PROVIDER=simulated: bought once, paid and fulfilled, the SIM- code behind the claim link', async () => {
    expect(expectSuccess(await call(app.url, 'GET', '/v2/api/gift-card/getSettings', { key: account.liveKey }))).to.deep.include({ provider_mode: 'provider', provider: 'simulated' });
    const body = gift(25);
    const res = await send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    const [order, ...more] = await ordersOf(account.accountId);
    expect(more).to.have.length(0);
    expect(order!.get({ plain: true })).to.deep.include({ source: 'simulated', product_id: 'simulated:AMAZON-US', amount_cents: 2500, payment_status: 'paid', fulfillment_status: 'fulfilled', claim_status: 'unclaimed', failure_reason: null });
    expect(order!.code_ciphertext).to.be.a('string');
    expect(order!.fulfilled_at).to.be.instanceOf(Date);
    const bought = await providerRows(account.accountId);
    expect(bought.map((r) => r.get({ plain: true }))).to.deep.equal([{ ...bought[0]!.get({ plain: true }), external_id: String(order!.id), sku: 'AMAZON-US', amount_cents: 2500, status: 'fulfilled', delayed_once: false }]);
    // The spend counts the order; nothing is left reserved on the send.
    expect((await spendUsed({ models }, account.accountId, today())).day).to.equal(2500);
    expect((await models.Send.findByPk(order!.send_id!))!.gift_reserved_cents).to.equal(0);

    const [mail, ...again] = smtp.to(body.recipientEmail);
    expect(again).to.have.length(0);
    const link = claimLinkIn(mail!.text);
    expect(link, mail!.text).to.be.a('string');
    expect(mail!.raw).not.to.match(SIM_CODE);
    const page = await reveal(link!);
    const code = SIM_CODE.exec(page)?.[0];
    expect(code, page).to.be.a('string');
    expect(code!.slice(-4)).to.equal(order!.code_last4);
    expect((await order!.reload()).claim_status).to.equal('claimed');
  });

  it('the sandbox (always the simulated provider): bought without REWARDS_PROVIDER, the email with its claim link in mail_sink', async () => {
    // The sandbox's own eCard and settings.
    await updateSettings(services, account.sandboxAccountId, { provider_mode: 'provider' });
    const widget = await insertWidget(models, account.sandboxAccountId);
    const sandboxEcard = (await insertEcard(models, account.sandboxAccountId, widget.id)).id;
    const body = { ...gift(30), ecardId: sandboxEcard };
    const res = await send(body, account.sandboxKey);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    const [order] = await ordersOf(account.sandboxAccountId);
    expect(order!.get({ plain: true })).to.deep.include({ source: 'simulated', payment_status: 'paid', fulfillment_status: 'fulfilled' });
    expect((await providerRows(account.sandboxAccountId)).map((r) => [r.external_id, r.status])).to.deep.equal([[String(order!.id), 'fulfilled']]);
    expect(await ordersOf(account.accountId)).to.have.length(0);
    expect(smtp.to(body.recipientEmail)).to.have.length(0);
    const [sunk] = await models.MailSinkMessage.findAll({ where: { account_id: account.sandboxAccountId, recipient: body.recipientEmail } });
    const link = claimLinkIn(sunk!.text_body);
    expect(link, sunk!.text_body).to.be.a('string');
    expect(sunk!.text_body).not.to.match(SIM_CODE);
    expect(await reveal(link!)).to.match(SIM_CODE);
  });

  it('.13 declines: the order failed/failed, its spend released, no email, the recipient failed', async () => {
    const body = gift(25.13);
    const res = await send(body);
    // The send's only recipient failed, so the send failed (502, as a send whose email could not go out).
    expect(res.status, JSON.stringify(res.body)).to.equal(502);
    expect(res.body).to.deep.include({ success: false, reason: 'provider' });
    expect((res.body.messages as string[]).join(' ')).to.match(/declined/);
    const [order, ...more] = await ordersOf(account.accountId);
    expect(more).to.have.length(0);
    expect(order!.get({ plain: true })).to.deep.include({ payment_status: 'failed', fulfillment_status: 'failed', claim_status: 'unclaimed', code_ciphertext: null, claim_token_hash: null });
    expect(order!.failure_reason).to.match(/^declined: /);
    expect((await providerRows(account.accountId)).map((r) => [r.external_id, r.status])).to.deep.equal([[String(order!.id), 'declined']]);
    expect(smtp.to(body.recipientEmail)).to.have.length(0);
    const [recipient] = await models.SendRecipient.findAll({ where: { send_id: order!.send_id! } });
    expect(recipient).to.deep.include({ status: 'failed', message_id: null });
    expect(recipient!.error).to.match(/gift declined/);
    expect((await models.Send.findByPk(order!.send_id!))!.get({ plain: true })).to.deep.include({ status: 'failed', gift_reserved_cents: 0 });
    expect(await spendUsed({ models }, account.accountId, today())).to.deep.equal({ day: 0, week: 0, month: 0 });
    // Listed as failed, with nothing to mask.
    const [listed] = expectSuccess(await call(app.url, 'GET', '/v2/api/gift-card/listOrders', { key: account.liveKey })) as Json[];
    expect(listed).to.deep.include({ payment_status: 'failed', fulfillment_status: 'failed', amount: 25.13 });
  });

  it('.42 times out once: the dispatch activity retries, the provider holds one order, the gift is fulfilled and emailed once', async () => {
    const body = gift(25.42);
    const started = Date.now();
    const res = await send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    // At least the 1 s timeout and the retry's 2 s backoff.
    expect(Date.now() - started).to.be.at.least(3000);
    const [order, ...more] = await ordersOf(account.accountId);
    expect(more).to.have.length(0);
    expect(order!.get({ plain: true })).to.deep.include({ amount_cents: 2542, payment_status: 'paid', fulfillment_status: 'fulfilled' });
    const bought = await providerRows(account.accountId);
    expect(bought.map((r) => [r.external_id, r.status, r.delayed_once])).to.deep.equal([[String(order!.id), 'fulfilled', true]]);
    expect(smtp.to(body.recipientEmail)).to.have.length(1);
    expect((await spendUsed({ models }, account.accountId, today())).day).to.equal(2542);

    // The history shows why: the dispatch activity failed with the provider's timeout and its second attempt finished.
    const send_ = await models.Send.findByPk(order!.send_id!, { rejectOnEmpty: true });
    const history = await (await testClient()).workflow.getHandle(sendWorkflowId(account.accountId, send_.send_id)).fetchHistory();
    const attempts = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes] : []));
    expect(attempts.map((a) => a.attempt)).to.deep.equal([2]);
    expect(JSON.stringify(attempts[0]!.lastFailure)).to.include('ProviderTimeoutError');
  });
});
