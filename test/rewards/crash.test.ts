// A provider-mode gift campaign under real worker deaths (as test/campaigns/crash.test.ts): worker children on task
// queues of their own, with REWARDS_PROVIDER=simulated. The first is killed with SIGKILL while SMTP takes an email,
// the second while it buys the next batch's gifts (some bought at the provider, not yet recorded on the order), and a
// third finishes. Nothing is bought twice, nobody gets two emails, and no order is left pending.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { updateSettings } from '../../services/rewards/settings.ts';
import { spendUsed } from '../../services/rewards/spend.ts';
import type { Models } from '../../models/index.ts';
import { apiClient, call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { claimLinkIn } from '../helpers/rewards.ts';
import { testSmtpServer, type ReceivedMail } from '../helpers/smtp.ts';
import { extraApp, testConfig, testEnv, testModels } from '../helpers/stack.ts';
import { expectOncePerAddress, killDuringDelivery, startWorkerChild, type WorkerChild } from '../helpers/worker-child.ts';

type Json = Record<string, unknown>;

describe('rewards: a provider gift campaign whose worker is killed with SIGKILL', function () {
  this.timeout(180_000);
  let models: Models;
  let account: TestAccount;
  let id: number;
  const total = 120;
  let worker: WorkerChild | undefined;
  let received: ReceivedMail[];
  let stopListening = () => {};
  let sendStatus: unknown;
  let firstExit: Awaited<WorkerChild['exited']>;
  let boughtAtFirstKill: number;
  let secondExit: Awaited<WorkerChild['exited']>;
  let atSecondKill: number;
  let done: Json;

  after(async () => {
    stopListening();
    if (!worker) return;
    worker.child.kill('SIGTERM');
    await worker.exited;
  });

  // Two kills, then a third worker that finishes the campaign; the checks below read what happened.
  before(async () => {
    models = await testModels();
    const smtp = await testSmtpServer();
    // Batches of 50 one at a time, so the second kill lands in one batch's buys.
    const settings = {
      TEMPORAL_TASK_QUEUE: `cardsvc-gift-crash-${process.pid}`,
      BULK_CONCURRENCY: '1',
      BULK_BATCH_SIZE: '50',
      ACTIVITY_HEARTBEAT_SECONDS: '2',
      SMTP_POOL_SIZE: '5',
      REWARDS_PROVIDER: 'simulated',
    };
    const app = await extraApp({ env: settings });
    const env = await testEnv({ ...settings, LOG_LEVEL: 'warn' });
    account = await newAccount(models, 'pro');
    await updateSettings({ config: await testConfig(settings), models }, account.accountId, { provider_mode: 'provider' });
    const widget = await insertWidget(models, account.accountId);
    const ecard = await insertEcard(models, account.accountId, widget.id);
    const { ok } = apiClient(app, account.liveKey);
    const domain = `giftcrash${process.pid}.example.com`;
    const gift = { product_id: 'simulated:AMAZON-US', amount: 10 };
    id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Gift crash', from_email: 'hr@example.com', gift_card_enabled: true, gift_card: gift } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] });
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: Array.from({ length: total }, (_, i) => ({ email: `r${i}@${domain}`, first_name: `R${i}` })) });
    const { token } = await issueToken({ models }, { accountId: account.accountId, purpose: 'gc_campaign_send', resourceId: String(id), now: new Date() });
    const bought = () => models.SimulatedProviderOrder.count({ where: { account_id: account.accountId } });

    const first = startWorkerChild(env);
    worker = first;
    ({ received, stop: stopListening } = killDuringDelivery(smtp, domain, first, 30));
    sendStatus = (await ok('POST', '/campaign/send', { campaignid: id, gc_confirmation_token: token })).status;
    firstExit = await first.exited;
    boughtAtFirstKill = await bought();

    // The second worker finishes batch 1 and dies while it buys batch 2's gifts.
    const second = startWorkerChild(env);
    worker = second;
    for (;;) {
      const n = await bought();
      if (n >= 60) break;
      if (second.child.exitCode !== null) throw new Error(`the second worker exited:\n${second.output()}`);
      await sleep(2);
    }
    second.child.kill('SIGKILL');
    secondExit = await second.exited;
    atSecondKill = await bought();

    worker = startWorkerChild(env);
    done = await eventually(
      async () => expectSuccess(await call(app.url, 'GET', `/v2/api/campaign/findOne/id/${id}`, { key: account.liveKey })) as Json,
      (c) => c.status === 'sent' || c.status === 'failed',
      120_000,
      250,
    );
  });

  it('the first worker dies taking an email after batch 1\'s 50 buys, the second while it buys batch 2\'s gifts', () => {
    expect(sendStatus).to.equal('sending');
    expect(firstExit).to.equal('SIGKILL');
    // Batch 1 (50 buys) was bought before its emails; the second batch's were not started.
    expect(boughtAtFirstKill).to.equal(50);
    expect(secondExit).to.equal('SIGKILL');
    expect(atSecondKill).to.be.within(60, 100);
  });

  it('a third worker ends the campaign sent: nothing pending or failed, at most one micro-batch unknown', () => {
    expect(done.status, `worker output:\n${worker!.output()}`).to.equal('sent');
    const counts = done.counts as Record<'sent' | 'unknown' | 'failed' | 'pending', number>;
    expect(counts.pending).to.equal(0);
    expect(counts.failed).to.equal(0);
    expect(counts.sent + counts.unknown).to.equal(total);
    // At most one micro-batch in flight per kill (the second usually dies before any email of its batch).
    expect(counts.unknown).to.be.at.most(10);
  });

  it('emails each recipient at most once, each email with its own claim link', async () => {
    // Emails: nobody twice; each sent recipient's email carries its own claim link.
    const perAddress = expectOncePerAddress(received);
    const states = await models.CampaignRecipient.findAll({ attributes: ['id', 'email', 'status'], where: { campaign_id: id }, raw: true });
    for (const r of states) {
      if (r.status === 'sent') expect(perAddress.get(r.email), r.email).to.equal(1);
      else expect(r.status, r.email).to.equal('unknown');
    }
    const links = received.map((m) => claimLinkIn(m.text));
    expect(links.every(Boolean)).to.equal(true);
    expect(new Set(links).size).to.equal(received.length);
  });

  it('ends every order: one per recipient, each fulfilled and paid', async () => {
    const states = await models.CampaignRecipient.findAll({ attributes: ['id'], where: { campaign_id: id }, raw: true });
    // Orders: one per recipient (its order_key), none pending; failed/canceled ones say why.
    const orders = await models.GiftOrder.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
    expect(orders).to.have.length(total);
    expect(new Set(orders.map((o) => o.order_key))).to.deep.equal(new Set(states.map((r) => `campaign:${id}:${r.id}`)));
    for (const o of orders) {
      expect(o.fulfillment_status, o.order_key).to.be.oneOf(['fulfilled', 'failed', 'canceled']);
      if (o.fulfillment_status !== 'fulfilled') expect(o.failure_reason, o.order_key).to.be.a('string').and.not.equal('');
    }
    // Nothing failed here: every gift was bought and its email sent (or in flight at the kill: left fulfilled).
    expect(orders.filter((o) => o.fulfillment_status !== 'fulfilled')).to.deep.equal([]);
    expect(orders.every((o) => o.payment_status === 'paid' && o.code_ciphertext !== null)).to.equal(true);
  });

  it('buys each order once at the provider, and nothing else', async () => {
    const orders = await models.GiftOrder.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
    // The provider: exactly one purchase per order, none for anything else, nothing refunded or declined.
    const purchases = await models.SimulatedProviderOrder.findAll({ where: { account_id: account.accountId }, raw: true });
    expect(purchases).to.have.length(total);
    expect(purchases.map((p) => p.external_id).sort()).to.deep.equal(orders.map((o) => String(o.id)).sort());
    expect(purchases.every((p) => p.status === 'fulfilled' && p.amount_cents === 1000)).to.equal(true);
  });

  it('spends the orders\' face value, the campaign\'s reservation all taken or released', async () => {
    const orders = await models.GiftOrder.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
    // The spend: the orders' face value, the campaign's reservation all taken or released.
    expect((await models.Campaign.findByPk(id))!.gift_reserved_cents).to.equal(0);
    expect((await spendUsed({ models }, account.accountId, orders[0]!.spend_day)).day).to.equal(total * 1000);
  });
});
