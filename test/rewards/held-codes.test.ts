// Gift stock is taken at accept, with real parts through HTTP: a scheduled gift send holds its manual code from its
// accept (rewardInventory shows one fewer available, and an email-now send cannot take it: 422
// insufficient_inventory); cancel-send gives it back to the pool; a scheduled send that goes out gives its recipient
// the very code it held. Runs on SQLite and MariaDB alike.
import { expect } from 'chai';
import { Op } from 'sequelize';
import { codeHmacs } from '../../services/rewards/crypto.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { apiClient, expectSuccess, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { claimLinkIn, seedCodes } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

let counter = 0;

describe('rewards e2e: a gift send holds its codes from accept until it is sent or canceled', function () {
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
    const made = await accountWithWidget(stack, { plan: 'pro' });
    account = made.account;
    domain = `hold${process.pid}-${++counter}.example.com`;
    ecardId = made.ecard.id;
  });

  const { api } = apiClient(() => stack, () => account.liveKey);
  const send = (name: string, extra: Json = {}) =>
    api('POST', '/pub/ecard-actions/send-ecard', {
      ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: name, recipientEmail: `${name}@${domain}`, giftCard: { product_id: 'manual:Hold:25', amount: 25 }, ...extra,
    });
  const seed = (count: number) => seedCodes(stack.models, stack.services.dataKeys!, account.accountId, 'Hold', 2500, count);
  const inventory = async () => expectSuccess(await api('GET', '/gift-card/rewardInventory')) as Json[];
  const stock = (available: number, assigned: number) => [{ brand: 'Hold', denomination: 25, currency: 'USD', available, assigned }];
  const sendRow = (sendId: string) => stack.models.Send.findOne({ where: { send_id: sendId }, rejectOnEmpty: true });
  const heldBy = async (sendId: string) => stack.models.GiftCode.findAll({ where: { held_send_id: (await sendRow(sendId)).id }, order: [['id', 'ASC']] });
  const refusedFlat = (res: { status: number; body: Json }) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body).to.deep.include({ success: false, reason: 'insufficient_inventory', needed: 1, available: 0 });
    expect(res.body).not.to.have.property('data');
  };

  it('a scheduled gift send holds its code (stock one fewer, an email-now send refused); cancel-send returns it, and it is given again', async () => {
    await seed(1);
    expect(await inventory()).to.deep.equal(stock(1, 0));

    const scheduled = await send('fay', { sendAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(scheduled.status, JSON.stringify(scheduled.body)).to.equal(200);
    expect(scheduled.body).to.deep.include({ success: true, status: 'scheduled' });
    const sendId = scheduled.body.sendId as string;
    expect(await heldBy(sendId)).to.have.length(1);
    expect(await inventory()).to.deep.equal(stock(0, 0));

    // The held code is not anyone else's: an email-now gift send is refused flat, with nothing written.
    const sendsBefore = await stack.models.Send.count({ where: { account_id: account.accountId } });
    refusedFlat(await send('gus'));
    expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(sendsBefore);
    expect(smtp.to(`gus@${domain}`)).to.have.length(0);

    expect(expectSuccess(await api('POST', '/pub/ecard-actions/cancel-send', { sendId }))).to.deep.equal({ sendId, status: 'canceled' });
    expect(await heldBy(sendId)).to.have.length(0);
    expect(await inventory()).to.deep.equal(stock(1, 0));
    expect(await stack.models.GiftOrder.count({ where: { account_id: account.accountId } })).to.equal(0);

    // Back in stock: the next gift send takes it.
    const now = await send('hal');
    expect(now.status, JSON.stringify(now.body)).to.equal(200);
    expect(now.body).to.deep.include({ success: true });
    await eventually(() => sendRow(now.body.sendId as string), (s) => s.status === 'sent', 30_000, 100);
    expect(await inventory()).to.deep.equal(stock(0, 1));
  });

  it('a scheduled gift send that goes out gives its recipient the code it held since accept', async () => {
    const codes = await seed(2);
    const byHmac = new Map(codes.map((c) => [codeHmacs(stack.services.dataKeys!, c)[0]!, c]));

    const sendAt = new Date(Date.now() + 4000);
    const scheduled = await send('ivy', { sendAt: sendAt.toISOString() });
    expect(scheduled.status, JSON.stringify(scheduled.body)).to.equal(200);
    expect(scheduled.body).to.deep.include({ success: true, status: 'scheduled' });
    const sendId = scheduled.body.sendId as string;
    const [held] = await heldBy(sendId);
    expect(held, 'a code held at accept').to.not.equal(undefined);
    expect(await inventory()).to.deep.equal(stock(1, 0));

    // An email-now send meanwhile takes the other code; a third finds none (the scheduled send holds the last).
    const other = await send('jon');
    expect(other.status, JSON.stringify(other.body)).to.equal(200);
    await eventually(() => sendRow(other.body.sendId as string), (s) => s.status === 'sent', 30_000, 100);
    refusedFlat(await send('kim'));

    const sent = await eventually(() => sendRow(sendId), (s) => s.status === 'sent' || s.status === 'failed', 40_000, 200);
    expect(sent.status, sent.error ?? '').to.equal('sent');
    const [order] = await stack.models.GiftOrder.findAll({ where: { send_id: sent.id } });
    expect(order!.get({ plain: true })).to.deep.include({ payment_status: 'paid', fulfillment_status: 'fulfilled', code_id: held!.id });
    expect(await stack.models.GiftCode.count({ where: { account_id: account.accountId, held_send_id: { [Op.ne]: null } } })).to.equal(0);
    expect(await inventory()).to.deep.equal(stock(0, 2));

    // The email's claim link reveals exactly the held code; the two emails carry different codes.
    const revealed: string[] = [];
    for (const name of ['ivy', 'jon']) {
      const mails = await eventually(async () => smtp.to(`${name}@${domain}`), (m) => m.length > 0, 10_000, 100);
      expect(mails).to.have.length(1);
      const html = await (await fetch(claimLinkIn(mails[0]!.text)!, { method: 'POST' })).text();
      revealed.push(codes.find((c) => html.includes(c))!);
    }
    expect(revealed[0]).to.equal(byHmac.get(held!.code_hmac));
    expect(new Set(revealed).size).to.equal(2);
  });
});
