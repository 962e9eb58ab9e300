// The inventory race with real parts: 20 gift send-ecard calls at once (one recipient each, email now) against a
// pool of 10 manual codes. Each call is either refused at accept (the stock check there: flat 422
// insufficient_inventory) or accepted, and an accepted one whose dispatch lost the race at claim ends with its order
// failed/out_of_stock and no email. Exactly 10 gifts go out with 10 distinct codes, no code is given twice, and the
// spend counter holds exactly the 10 face values. Runs on SQLite and MariaDB (SKIP LOCKED) alike.
import { expect } from 'chai';
import { Op } from 'sequelize';
import { codeHmacs } from '../../services/rewards/crypto.ts';
import { dayOf } from '../../services/rewards/periods.ts';
import { setRule } from '../../services/rewards/settings.ts';
import { spendUsed } from '../../services/rewards/spend.ts';
import { call, expectSuccess, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
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
    account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId);
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
  });

  it('exactly 10 fulfilled with 10 distinct codes; the rest refused at accept or failed out_of_stock without an email; spend = 10 face values', async () => {
    const { models } = stack;
    const codes = await seedCodes(models, stack.services.rewardsKeys!, account.accountId, 'Race', CENTS, CODES);
    // A rule far above the total, so getRules shows the day's use (and nothing is refused for spend).
    await setRule(models, account.accountId, 'day', 1_000_000);
    const spendBefore = (await spendUsed(models, account.accountId, dayOf(new Date()))).day;
    const recipients = Array.from({ length: CALLS }, (_, i) => `race${i}-${process.pid}-${Date.now()}@example.com`);

    const answers: ApiResponse[] = await Promise.all(
      recipients.map((recipient) =>
        call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
          key: account.liveKey,
          body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Racer', recipientEmail: recipient, giftCard: { product_id: 'manual:Race:25', amount: 25 } },
        }),
      ),
    );

    // Each call: refused at accept (flat 422, no send made), or accepted (a send for that recipient).
    const refused: string[] = [];
    const accepted: Array<{ recipient: string; sendId: string }> = [];
    for (const [i, res] of answers.entries()) {
      if (res.status === 422) {
        expect(res.body, JSON.stringify(res.body)).to.deep.include({ success: false, reason: 'insufficient_inventory' });
        expect(res.body).not.to.have.property('data');
        refused.push(recipients[i]!);
      } else {
        // 200 (sent), 502 (the send failed: its gift could not be had), or 200 pending if the wait ran out.
        expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 502]);
        expect(res.body.sendId, JSON.stringify(res.body)).to.be.a('string');
        accepted.push({ recipient: recipients[i]!, sendId: res.body.sendId as string });
      }
    }
    expect(refused.length + accepted.length).to.equal(CALLS);
    expect(accepted.length).to.be.at.least(CODES);
    for (const r of refused) expect(await models.SendRecipient.count({ where: { recipient_email: r } }), r).to.equal(0);

    // Every accepted send ends (sent or failed).
    const sends = await eventually(
      () => models.Send.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] }),
      (rows) => rows.length === accepted.length && rows.every((s) => s.status === 'sent' || s.status === 'failed'),
      60_000,
      200,
    );
    expect(new Set(sends.map((s) => s.send_id))).to.deep.equal(new Set(accepted.map((a) => a.sendId)));

    const orders = await models.GiftOrder.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
    expect(orders, 'one order per accepted send').to.have.length(accepted.length);
    const fulfilled = orders.filter((o) => o.fulfillment_status === 'fulfilled');
    const failed = orders.filter((o) => o.fulfillment_status !== 'fulfilled');
    expect(fulfilled).to.have.length(CODES);
    for (const o of fulfilled) expect(o.get({ plain: true })).to.deep.include({ payment_status: 'paid', claim_status: 'unclaimed', scope: 'widget' });
    for (const o of failed) {
      expect(o.get({ plain: true })).to.deep.include({ payment_status: 'failed', fulfillment_status: 'failed', failure_reason: 'out_of_stock', code_id: null });
      // No email to a recipient whose gift could not be had; the send failed.
      expect(smtp.to(o.recipient_email!), o.recipient_email!).to.have.length(0);
      const sendOf = sends.find((s) => s.id === o.send_id)!;
      expect(sendOf.status).to.equal('failed');
      const answer = answers[recipients.indexOf(o.recipient_email!)]!;
      if (answer.status !== 200) expect(answer.body).to.deep.include({ success: false, reason: 'provider', sendId: sendOf.send_id });
    }

    // No code given twice: 10 distinct codes, each naming its one order, and each order the code naming it.
    expect(new Set(fulfilled.map((o) => o.code_id)).size).to.equal(CODES);
    const given = await models.GiftCode.findAll({ where: { account_id: account.accountId, order_id: { [Op.ne]: null } } });
    expect(given).to.have.length(CODES);
    expect(new Set(given.map((g) => g.order_id)).size).to.equal(CODES);
    for (const o of fulfilled) expect(given.find((g) => g.id === o.code_id)?.order_id, `order ${o.id}`).to.equal(o.id);

    // Each fulfilled recipient got one email whose claim link reveals its own code; the 10 codes are the pool's.
    const byHmac = new Map(codes.map((c) => [codeHmacs(stack.services.rewardsKeys!, c)[0]!, c]));
    const revealed = new Set<string>();
    for (const o of fulfilled) {
      const mails = smtp.to(o.recipient_email!);
      expect(mails, o.recipient_email!).to.have.length(1);
      const link = claimLinkIn(mails[0]!.text)!;
      const html = await (await fetch(link, { method: 'POST' })).text();
      const code = byHmac.get(given.find((g) => g.order_id === o.id)!.code_hmac)!;
      expect(html, o.recipient_email!).to.include(code);
      revealed.add(code);
    }
    expect(revealed.size).to.equal(CODES);

    // Spend: the counter holds the face values of the orders that count (not failed or refunded), no reservation left.
    const counted = orders.filter((o) => o.payment_status !== 'failed' && o.payment_status !== 'refunded').reduce((n, o) => n + o.amount_cents, 0);
    expect(counted).to.equal(CODES * CENTS);
    expect((await spendUsed(models, account.accountId, dayOf(new Date()))).day - spendBefore).to.equal(CODES * CENTS);
    const rules = expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/getRules', { key: account.liveKey })) as Json;
    expect((rules.rules as Json[])[0]).to.deep.include({ period: 'day', used: (CODES * CENTS) / 100 });
    for (const s of sends) expect(s.gift_reserved_cents, s.send_id).to.equal(0);
    expect(expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/rewardInventory', { key: account.liveKey }))).to.deep.equal([
      { brand: 'Race', denomination: 25, currency: 'USD', available: 0, assigned: CODES },
    ]);

    // The pool is empty now: the stock check at accept refuses the next call flat, with nothing reserved or made.
    const late = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: account.liveKey,
      body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Late', recipientEmail: `late-${process.pid}@example.com`, giftCard: { product_id: 'manual:Race:25', amount: 25 } },
    });
    expect(late.status).to.equal(422);
    expect(late.body).to.deep.include({ success: false, reason: 'insufficient_inventory', needed: 1, available: 0 });
    expect(await models.Send.count({ where: { account_id: account.accountId } })).to.equal(accepted.length);
    expect((await spendUsed(models, account.accountId, dayOf(new Date()))).day - spendBefore).to.equal(CODES * CENTS);
  });
});
