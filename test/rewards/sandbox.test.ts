// The sandbox's gifts: in manual mode generated `TEST-…` codes (for products of its own or its live account's pool)
// that never touch the live account's codes, orders or spend; in provider mode the simulated provider, on the
// sandbox account only. Emails land in mail_sink with their claim link, and nothing goes to SMTP.
import { expect } from 'chai';
import { Op } from 'sequelize';
import { updateSettings } from '../../services/rewards/settings.ts';
import { spendUsed } from '../../services/rewards/spend.ts';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { claimLinkIn, seedCodes } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;
const TEST_CODE = /TEST-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}/;

describe('rewards: the sandbox gives fake codes and charges nothing', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  let liveCodes: string[];

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    // One live code of the product the sandbox gives twice below.
    liveCodes = await seedCodes(stack.models, stack.services.dataKeys!, account.accountId, 'Acme', 2500, 1);
    const widget = await insertWidget(stack.models, account.sandboxAccountId);
    ecardId = (await insertEcard(stack.models, account.sandboxAccountId, widget.id)).id;
  });

  const send = (giftCard: Json, recipientEmail = address('sandbox-gift')) =>
    call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.sandboxKey, body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail, giftCard } });
  const sunk = async (recipient: string) => {
    const rows = await stack.models.MailSinkMessage.findAll({ where: { account_id: account.sandboxAccountId, recipient } });
    expect(rows).to.have.length(1);
    return rows[0]!;
  };
  const reveal = async (text: string) => {
    const link = claimLinkIn(text);
    expect(link, text).to.be.a('string');
    const res = await fetch(`${stack.url}/g/${link!.slice(link!.lastIndexOf('/') + 1)}`, { method: 'POST' });
    expect(res.status).to.equal(200);
    return res.text();
  };
  const liveUntouched = async () => {
    expect(await stack.models.GiftCode.count({ where: { account_id: account.accountId, order_id: { [Op.ne]: null } } })).to.equal(0);
    expect(await stack.models.GiftCode.count({ where: { account_id: account.accountId, assigned_at: { [Op.ne]: null } } })).to.equal(0);
    expect(await stack.models.GiftOrder.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await stack.models.SimulatedProviderOrder.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await spendUsed(stack, account.accountId, new Date().toISOString().slice(0, 10))).to.deep.equal({ day: 0, week: 0, month: 0 });
    // The live account's inventory says so too.
    expect(expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/rewardInventory', { key: account.liveKey }))).to.deep.equal([
      { brand: 'Acme', denomination: 25, currency: 'USD', available: 1, assigned: 0 },
    ]);
  };

  it('manual mode: a generated TEST- code per gift (more gifts than live codes), in mail_sink with its claim link; live codes untouched', async () => {
    // The sandbox's catalog offers the live pool's products, stock not counted.
    const products = expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/listProducts', { key: account.sandboxKey })) as Json[];
    expect(products).to.deep.equal([{ product_id: 'manual:Acme:25', brand: 'Acme', name: 'Acme 25 USD', denomination: 25, min_amount: 25, max_amount: 25, currency: 'USD', countries: [], available: null }]);
    const recipients = [address('first'), address('second')];
    for (const to of recipients) {
      const res = await send({ product_id: 'manual:Acme:25', amount: 25 }, to);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    }
    const orders = await stack.models.GiftOrder.findAll({ where: { account_id: account.sandboxAccountId }, order: [['id', 'ASC']] });
    expect(orders).to.have.length(2);
    for (const o of orders) {
      expect(o.get({ plain: true })).to.deep.include({ source: 'sandbox', product_id: 'manual:Acme:25', payment_status: 'paid', fulfillment_status: 'fulfilled', code_id: null });
      expect(o.code_ciphertext).to.be.a('string');
    }
    const codes: string[] = [];
    for (const to of recipients) {
      expect(smtp.to(to)).to.have.length(0);
      const mail = await sunk(to);
      expect(mail.text_body).not.to.match(TEST_CODE);
      const page = await reveal(mail.text_body);
      const code = TEST_CODE.exec(page)?.[0];
      expect(code, page).to.be.a('string');
      expect(page).not.to.include(liveCodes[0]!);
      codes.push(code!);
    }
    expect(new Set(codes).size).to.equal(2);
    // The sandbox's own list shows them claimed, masked.
    const listed = expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/listOrders', { key: account.sandboxKey })) as Json[];
    expect(listed.map((o) => o.code_masked).sort()).to.deep.equal(codes.map((c) => `****${c.slice(-4)}`).sort());
    expect(listed.every((o) => o.claim_status === 'claimed')).to.equal(true);
    expect(await stack.models.SimulatedProviderOrder.count({ where: { account_id: account.sandboxAccountId } })).to.equal(0);
    await liveUntouched();
  });

  it('provider mode: the simulated provider on the sandbox account only, nothing on the live account', async () => {
    await updateSettings(stack.services, account.sandboxAccountId, { provider_mode: 'provider' });
    const to = address('provider');
    const res = await send({ product_id: 'simulated:STARBUCKS-US', amount: 15 }, to);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [order] = await stack.models.GiftOrder.findAll({ where: { account_id: account.sandboxAccountId } });
    expect(order!.get({ plain: true })).to.deep.include({ source: 'simulated', payment_status: 'paid', fulfillment_status: 'fulfilled' });
    expect((await stack.models.SimulatedProviderOrder.findAll({ where: { account_id: account.sandboxAccountId } })).map((r) => r.external_id)).to.deep.equal([String(order!.id)]);
    expect(await reveal((await sunk(to)).text_body)).to.match(/SIM-[0-9A-F]{4}-/);
    expect(smtp.to(to)).to.have.length(0);
    await liveUntouched();
  });
});
