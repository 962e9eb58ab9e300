// The inventory race with real parts: 20 gift send-ecard calls at once (one recipient each, email now, each with its
// own Idempotency-Key) against a pool of 10 manual codes. The codes are taken in the accept's transaction (held for
// the send, SKIP LOCKED on MariaDB), so exactly 10 calls are accepted and sent, and 10 are refused flat 422
// insufficient_inventory with nothing written (no send, recipient, quota use, spend or idempotency row). Exactly 10
// gifts go out with 10 distinct codes, no code is given twice, no order fails out_of_stock, and the spend counter
// holds exactly the 10 face values. Runs on SQLite and MariaDB alike.
import { expect } from 'chai';
import { Op } from 'sequelize';
import { codeHmacs } from '../../services/rewards/crypto.ts';
import { dayOf } from '../../services/rewards/periods.ts';
import { setRule } from '../../services/rewards/settings.ts';
import { spendUsed } from '../../services/rewards/spend.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { claimLinkIn, seedCodes } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

const CODES = 10;
const CALLS = 20;
const CENTS = 2500;

describe('rewards e2e: 20 concurrent gift sends against 10 codes', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
    const made = await accountWithWidget(stack, { plan: 'pro' });
    account = made.account;
    ecardId = made.ecard.id;
  });

  describe('when 20 gift sends race for 10 codes', () => {
    let models: TestStack['models'];
    let codes: string[];
    let spendBefore: number;
    let recipients: string[];
    let month: string;
    let quotaBefore: number;
    let answers: ApiResponse[];
    const refused: string[] = [];
    const accepted: Array<{ recipient: string; sendId: string }> = [];
    let sends: Array<InstanceType<TestStack['models']['Send']>>;
    let orders: Array<InstanceType<TestStack['models']['GiftOrder']>>;
    let fulfilled: typeof orders;
    let given: Array<InstanceType<TestStack['models']['GiftCode']>>;

    before(async () => {
      ({ models } = stack);
      codes = await seedCodes(models, stack.services.dataKeys!, account.accountId, 'Race', CENTS, CODES);
      // A rule far above the total, so getRules shows the day's use (and nothing is refused for spend).
      await setRule({ models }, account.accountId, 'day', 1_000_000);
      spendBefore = (await spendUsed({ models }, account.accountId, dayOf(new Date()))).day;
      recipients = Array.from({ length: CALLS }, (_, i) => `race${i}-${process.pid}-${Date.now()}@example.com`);

      month = new Date().toISOString().slice(0, 7);
      quotaBefore = (await models.QuotaUsage.findOne({ where: { account_id: account.accountId, month } }))?.used ?? 0;
      answers = await Promise.all(
        recipients.map((recipient, i) =>
          call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
            key: account.liveKey,
            headers: { 'Idempotency-Key': `race-${process.pid}-${Date.now()}-${i}` },
            body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Racer', recipientEmail: recipient, giftCard: { product_id: 'manual:Race:25', amount: 25 } },
          }),
        ),
      );
      // Each call: refused at accept (a 422), or accepted; the answers' shapes are checked below.
      for (const [i, res] of answers.entries()) {
        if (res.status === 422) refused.push(recipients[i]!);
        else accepted.push({ recipient: recipients[i]!, sendId: res.body.sendId as string });
      }
      // Wait until every accepted send is done; the checks below say how each ended.
      sends = await eventually(
        () => models.Send.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] }),
        (rows) => rows.every((s) => s.status !== 'pending'),
        60_000,
        200,
      );
      orders = await models.GiftOrder.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
      fulfilled = orders.filter((o) => o.fulfillment_status === 'fulfilled');
      given = await models.GiftCode.findAll({ where: { account_id: account.accountId, order_id: { [Op.ne]: null } } });
    });

    it('each call is accepted and sent or refused flat 422 insufficient_inventory: exactly 10 of each', () => {
      // Each call: refused at accept (flat 422, nothing made), or accepted and sent (its code was held at accept).
      for (const res of answers) {
        if (res.status === 422) {
          expect(res.body, JSON.stringify(res.body)).to.deep.include({ success: false, reason: 'insufficient_inventory' });
          expect(res.body).not.to.have.property('data');
        } else {
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          // Sent (emailsSent 1), or still in flight when the wait ran out (status pending): never a 502.
          expect(res.body, JSON.stringify(res.body)).to.deep.include({ success: true });
          if (res.body.status !== 'pending') expect(res.body.emailsSent, JSON.stringify(res.body)).to.equal(1);
          expect(res.body.sendId, JSON.stringify(res.body)).to.be.a('string');
        }
      }
      expect(accepted).to.have.length(CODES);
      expect(refused).to.have.length(CALLS - CODES);
    });

    it('a refused call writes nothing: no recipient row, send, idempotency row or quota use', async () => {
      // Nothing written for a refused call: no recipient row, no send, no idempotency row, no quota used.
      for (const r of refused) expect(await models.SendRecipient.count({ where: { recipient_email: r } }), r).to.equal(0);
      expect(await models.IdempotencyKey.count({ where: { account_id: account.accountId } })).to.equal(CODES);
      expect((await models.QuotaUsage.findOne({ where: { account_id: account.accountId, month } }))!.used - quotaBefore).to.equal(CODES);
    });

    it('every accepted send is sent, and no refused recipient gets an email', () => {
      expect(sends.map((s) => s.status)).to.deep.equal(Array.from({ length: CODES }, () => 'sent'));
      expect(new Set(sends.map((s) => s.send_id))).to.deep.equal(new Set(accepted.map((a) => a.sendId)));
      for (const r of refused) expect(smtp.to(r), r).to.have.length(0);
    });

    it('one fulfilled order per accepted send, each with a code of its own: no code given twice or still held', async () => {
      expect(orders, 'one order per accepted send').to.have.length(CODES);
      expect(fulfilled, 'no order failed out_of_stock').to.have.length(CODES);
      for (const o of fulfilled) expect(o.get({ plain: true })).to.deep.include({ payment_status: 'paid', claim_status: 'unclaimed', scope: 'widget' });
      // No code given twice: 10 distinct codes, each naming its one order, and each order the code naming it.
      expect(new Set(fulfilled.map((o) => o.code_id)).size).to.equal(CODES);
      expect(given).to.have.length(CODES);
      expect(await models.GiftCode.count({ where: { account_id: account.accountId, held_send_id: { [Op.ne]: null } } }), 'no code still held').to.equal(0);
      expect(new Set(given.map((g) => g.order_id)).size).to.equal(CODES);
      for (const o of fulfilled) expect(given.find((g) => g.id === o.code_id)?.order_id, `order ${o.id}`).to.equal(o.id);
    });

    it('each recipient gets one email whose claim link reveals its own code from the pool', async () => {
      // Each fulfilled recipient got one email whose claim link reveals its own code; the 10 codes are the pool's.
      const byHmac = new Map(codes.map((c) => [codeHmacs(stack.services.dataKeys!, c)[0]!, c]));
      const revealed = new Set<string>();
      const links = new Set<string>();
      for (const o of fulfilled) {
        const mails = smtp.to(o.recipient_email!);
        expect(mails, o.recipient_email!).to.have.length(1);
        const link = claimLinkIn(mails[0]!.text)!;
        links.add(link);
        const html = await (await fetch(link, { method: 'POST' })).text();
        const code = byHmac.get(given.find((g) => g.order_id === o.id)!.code_hmac)!;
        expect(html, o.recipient_email!).to.include(code);
        revealed.add(code);
      }
      expect(revealed.size).to.equal(CODES);
      expect(links.size).to.equal(CODES);
    });

    it('the spend counter holds exactly the 10 face values, no reservation left; the inventory shows all 10 assigned', async () => {
      // Spend: the counter holds the face values of the orders that count (not failed or refunded), no reservation left.
      const counted = orders.filter((o) => o.payment_status !== 'failed' && o.payment_status !== 'refunded').reduce((n, o) => n + o.amount_cents, 0);
      expect(counted).to.equal(CODES * CENTS);
      expect((await spendUsed({ models }, account.accountId, dayOf(new Date()))).day - spendBefore).to.equal(CODES * CENTS);
      const rules = expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/getRules', { key: account.liveKey })) as Json;
      expect((rules.rules as Json[])[0]).to.deep.include({ period: 'day', used: (CODES * CENTS) / 100 });
      for (const s of sends) expect(s.gift_reserved_cents, s.send_id).to.equal(0);
      expect(expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/rewardInventory', { key: account.liveKey }))).to.deep.equal([
        { brand: 'Race', denomination: 25, currency: 'USD', available: 0, assigned: CODES },
      ]);
    });

    it('the empty pool refuses the next call flat, with nothing reserved or made', async () => {
      // The pool is empty now: the stock check at accept refuses the next call flat, with nothing reserved or made.
      const late = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
        key: account.liveKey,
        body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Late', recipientEmail: `late-${process.pid}@example.com`, giftCard: { product_id: 'manual:Race:25', amount: 25 } },
      });
      expect(late.status).to.equal(422);
      expect(late.body).to.deep.include({ success: false, reason: 'insufficient_inventory', needed: 1, available: 0 });
      expect(await models.Send.count({ where: { account_id: account.accountId } })).to.equal(CODES);
      expect((await spendUsed({ models }, account.accountId, dayOf(new Date()))).day - spendBefore).to.equal(CODES * CENTS);
    });
  });
});
