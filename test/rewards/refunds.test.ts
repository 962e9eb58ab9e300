// How gifts end when they do not reach their recipient, with real parts: an SMTP 5xx after fulfilment refunds the
// order (refunded/canceled), releases its spend and puts the manual code back in inventory (a send-ecard send and
// a campaign's bulk delivery); a scheduled gift send canceled gives its reservation back; a gift campaign canceled
// gives back what no order took.
import { expect } from 'chai';
import { Op } from 'sequelize';
import type { Services } from '../../app/services.ts';
import { sendCampaign } from '../../services/campaigns/moves.ts';
import { sendCampaignBatch } from '../../services/campaigns/batch.ts';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { dayOf } from '../../services/rewards/periods.ts';
import { spendUsed } from '../../services/rewards/spend.ts';
import { campaignWorkflowId } from '../../workflows/campaign/contract.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { claimLinkIn, seedCodes } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testConfig, testServices, testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

let counter = 0;

describe('rewards e2e: refunds and released reservations', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  let domain: string;

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    domain = `rf${process.pid}-${++counter}.example.com`;
    const widget = await insertWidget(stack.models, account.accountId);
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
  });

  const { api, ok } = apiClient(() => stack, () => account.liveKey);
  const gift = { product_id: 'manual:Acme:25', amount: 25 };
  const send = (names: string[], extra: Json = {}) =>
    api('POST', '/pub/ecard-actions/send-ecard', {
      ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: names, recipientEmail: names.map((n) => `${n}@${domain}`), giftCard: gift, ...extra,
    });
  const seed = (count: number) => seedCodes(stack.models, stack.services.dataKeys!, account.accountId, 'Acme', 2500, count);
  const spent = async () => (await spendUsed(stack, account.accountId, dayOf(new Date()))).day;
  const orders = () => stack.models.GiftOrder.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
  const inventory = async () => expectSuccess(await api('GET', '/gift-card/rewardInventory')) as Json[];
  const freeCodes = () => stack.models.GiftCode.count({ where: { account_id: account.accountId, order_id: { [Op.is]: null } } });

  describe('an SMTP 5xx after fulfilment', () => {
    it('send-ecard: the order refunded/canceled, its spend released, its code back in inventory (and given again)', async () => {
      const [code] = await seed(1);
      smtp.failNext(1, 550, '5.1.1 Mailbox unavailable');
      const res = await send(['ann']);
      expect(res.status, JSON.stringify(res.body)).to.equal(502);
      expect(res.body).to.deep.include({ success: false, reason: 'provider' });
      expect(smtp.to(`ann@${domain}`)).to.have.length(0);

      const [order] = await orders();
      expect(order!.get({ plain: true })).to.deep.include({ payment_status: 'refunded', fulfillment_status: 'canceled', claim_status: 'unclaimed', code_id: null, claim_token_hash: null });
      expect(order!.failure_reason).to.match(/^email_failed: /);
      expect(order!.fulfilled_at, 'it was fulfilled before the email').to.be.instanceOf(Date);
      const codeRow = (await stack.models.GiftCode.findOne({ where: { account_id: account.accountId } }))!;
      expect(codeRow.get({ plain: true })).to.deep.include({ order_id: null, assigned_at: null });
      expect(await inventory()).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 1, assigned: 0 }]);
      expect(await spent()).to.equal(0);
      expect((await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!.gift_reserved_cents).to.equal(0);
      const listed = expectSuccess(await api('GET', '/gift-card/listOrders?payment_status=refunded')) as Json[];
      // The list still says a code and a link were once given (masked), never which code.
      expect(listed.map((o) => [o.id, o.fulfillment_status, o.code_masked])).to.deep.equal([[order!.id, 'canceled', `****${code!.slice(-4)}`]]);
      expect(JSON.stringify(listed)).not.to.include(code!);

      // The code is the pool's again: the next gift gets it, and its claim link reveals it.
      const again = await send(['bob']);
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      const second = (await orders())[1]!;
      expect(second.get({ plain: true })).to.deep.include({ payment_status: 'paid', fulfillment_status: 'fulfilled', code_id: codeRow.id });
      const link = claimLinkIn(smtp.to(`bob@${domain}`)[0]!.text)!;
      expect(await (await fetch(link, { method: 'POST' })).text()).to.include(code!);
      expect(await spent()).to.equal(2500);
    });

    it('send-ecard to two: only the failed recipient\'s gift is refunded; the other stays fulfilled and counted', async () => {
      await seed(2);
      smtp.failNext(1, 554, '5.7.1 Rejected');
      const res = await send(['cy', 'di']);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
      const made = await orders();
      expect(made.map((o) => [o.recipient_email, o.payment_status, o.fulfillment_status])).to.deep.equal([
        [`cy@${domain}`, 'refunded', 'canceled'],
        [`di@${domain}`, 'paid', 'fulfilled'],
      ]);
      expect(smtp.to(`cy@${domain}`)).to.have.length(0);
      expect(smtp.to(`di@${domain}`)).to.have.length(1);
      expect(await inventory()).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 1, assigned: 1 }]);
      expect(await spent()).to.equal(2500);
    });

    it('a campaign: the recipient whose email failed has its gift refunded and code back; the others keep theirs', async () => {
      await seed(4);
      const campaign = await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Gifts', from_email: 'hr@example.com', gift_card_enabled: true, gift_card: gift } });
      const id = campaign.id as number;
      await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] });
      await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: [0, 1, 2].map((i) => ({ email: `c${i}@${domain}`, name: `C ${i}` })) });
      const { token } = await issueToken(stack, { accountId: account.accountId, purpose: 'gc_campaign_send', resourceId: String(id), now: new Date() });
      smtp.failNext(1, 550, '5.1.1 Mailbox unavailable');
      await ok('POST', '/campaign/send', { campaignid: id, gc_confirmation_token: token });
      const done = await eventually(() => ok('GET', `/campaign/findOne/id/${id}`), (c) => c.status === 'sent', 30_000);
      expect(done.counts).to.deep.include({ recipients: 3, sent: 2, failed: 1 });

      const made = await orders();
      expect(made).to.have.length(3);
      const refunded = made.filter((o) => o.payment_status === 'refunded');
      expect(refunded).to.have.length(1);
      expect(refunded[0]!.get({ plain: true })).to.deep.include({ fulfillment_status: 'canceled', code_id: null, scope: 'campaign' });
      expect(smtp.to(refunded[0]!.recipient_email!)).to.have.length(0);
      for (const o of made.filter((o) => o !== refunded[0])) expect(o.get({ plain: true })).to.deep.include({ payment_status: 'paid', fulfillment_status: 'fulfilled' });
      expect(await inventory()).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 2, assigned: 2 }]);
      expect(await spent()).to.equal(2 * 2500);
      expect((await stack.models.Campaign.findByPk(id))!.gift_reserved_cents).to.equal(0);
    });
  });

  it('a scheduled gift send canceled (cancel-send) releases its reservation, once; no order, no code taken', async () => {
    await seed(3);
    // One gift sent now: the counter holds 25.00 that the cancel must not touch.
    expect((await send(['eve'])).status).to.equal(200);
    expect(await spent()).to.equal(2500);

    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await send(['fay', 'gus'], { sendAt });
    expect(scheduled.status, JSON.stringify(scheduled.body)).to.equal(200);
    expect(scheduled.body).to.deep.include({ success: true, status: 'scheduled' });
    const sendId = scheduled.body.sendId as string;
    // Reserved at accept: two recipients × 25.00 (stock checked, no code given until the send goes out).
    expect(await spent()).to.equal(2500 + 2 * 2500);
    expect((await stack.models.Send.findOne({ where: { send_id: sendId } }))!.gift_reserved_cents).to.equal(2 * 2500);
    expect(await freeCodes()).to.equal(2);

    expect(await ok('POST', '/pub/ecard-actions/cancel-send', { sendId })).to.deep.equal({ sendId, status: 'canceled' });
    expect(await spent()).to.equal(2500);
    const row = (await stack.models.Send.findOne({ where: { send_id: sendId } }))!;
    expect(row.status).to.equal('canceled');
    expect(row.gift_reserved_cents).to.equal(0);
    expect(await stack.models.GiftOrder.count({ where: { account_id: account.accountId, send_id: row.id } })).to.equal(0);
    expect(await freeCodes()).to.equal(2);

    // A second cancel is refused and releases nothing more.
    expectFailure(await api('POST', '/pub/ecard-actions/cancel-send', { sendId }), 422, 'not_cancelable');
    expect(await spent()).to.equal(2500);
  });

  describe('a gift campaign canceled', () => {
    const giftCampaign = async (recipients: number) => {
      const created = await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Gifts', from_email: 'hr@example.com', gift_card_enabled: true, gift_card: gift } });
      const id = created.id as number;
      await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] });
      await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: Array.from({ length: recipients }, (_, i) => ({ email: `k${i}@${domain}`, name: `K ${i}` })) });
      const { token } = await issueToken(stack, { accountId: account.accountId, purpose: 'gc_campaign_send', resourceId: String(id), now: new Date() });
      return { id, token };
    };

    it('while scheduled: its whole reservation released, no order, every code still free', async () => {
      await seed(4);
      const { id, token } = await giftCampaign(4);
      await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: `${new Date(Date.now() + 3_600_000).toISOString().slice(0, 19)}Z`, scheduled_timezone: 'UTC', gc_confirmation_token: token });
      expect(await spent()).to.equal(4 * 2500);
      expect((await stack.models.Campaign.findByPk(id))!.gift_reserved_cents).to.equal(4 * 2500);

      expect((await ok('POST', '/campaign/cancel', { campaignid: id })).status).to.equal('canceled');
      expect(await spent()).to.equal(0);
      expect((await stack.models.Campaign.findByPk(id))!.gift_reserved_cents).to.equal(0);
      expect(await stack.models.GiftOrder.count({ where: { account_id: account.accountId } })).to.equal(0);
      expect(await freeCodes()).to.equal(4);
    });

    describe('while sending, after a first batch', () => {
      // Services whose workflows go to a task queue no worker polls: the campaign goes to `sending` and its workflow
      // never runs, so the test runs one batch itself (deterministically) before the cancel.
      let idle: Services;
      before(async () => {
        idle = await testServices(await testConfig({ TEMPORAL_TASK_QUEUE: `rewards-idle-${process.pid}` }));
      });

      it('releases what no order took; the orders of the batch sent keep their spend and codes', async () => {
        await seed(5);
        const { id, token } = await giftCampaign(5);
        try {
          expect((await sendCampaign(idle, account.accountId, id, token)).status).to.equal('sending');
          expect(await spent()).to.equal(5 * 2500);
          const counts = await sendCampaignBatch(idle, { campaignId: id, afterRecipientId: 0, limit: 2 }, { lastTry: true, heartbeat: () => undefined });
          expect(counts).to.deep.include({ sent: 2 });
          expect((await stack.models.Campaign.findByPk(id))!.gift_reserved_cents).to.equal(3 * 2500);
          expect(await spent()).to.equal(5 * 2500);

          const canceled = await ok('POST', '/campaign/cancel', { campaignid: id });
          expect(canceled.status).to.equal('canceled');
          expect(canceled.counts).to.deep.include({ sent: 2, canceled: 3 });
        } finally {
          await idle.workflows!.client.workflow.getHandle(campaignWorkflowId(account.accountId, id)).terminate('test over').catch(() => undefined);
        }
        // The 3 recipients no order was made for gave back their share; the 2 sent gifts still count.
        expect(await spent()).to.equal(2 * 2500);
        expect((await stack.models.Campaign.findByPk(id))!.gift_reserved_cents).to.equal(0);
        const made = await orders();
        expect(made.map((o) => [o.scope, o.payment_status, o.fulfillment_status])).to.deep.equal([
          ['campaign', 'paid', 'fulfilled'],
          ['campaign', 'paid', 'fulfilled'],
        ]);
        expect(await freeCodes()).to.equal(3);
        for (const o of made) expect(smtp.to(o.recipient_email!)).to.have.length(1);
      });
    });
  });
});
