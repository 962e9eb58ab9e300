import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, newKey, type TestAccount } from '../helpers/api.ts';
import { claimLinkIn, seedCodes } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;

describe('rewards: a gift card on send-ecard', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    const made = await accountWithWidget(stack, { plan: 'pro' });
    account = made.account;
    ecardId = made.ecard.id;
  });
  const send = (body: Record<string, unknown>, key = account.liveKey) => call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key, body });
  const base = () => ({ ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: address('gift-rita') });

  it('manual code: one order, paid and fulfilled, the email carries the claim link and never the code', async () => {
    const [code] = await seedCodes(stack.models, stack.services.dataKeys!, account.accountId, 'Acme', 2500, 1);
    const body = { ...base(), giftCard: { product_id: 'manual:Acme:25', amount: 25 } };
    const res = await send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    const orders = await stack.models.GiftOrder.findAll({ where: { account_id: account.accountId } });
    expect(orders).to.have.length(1);
    expect(orders[0]!.get({ plain: true })).to.deep.include({ scope: 'widget', payment_status: 'paid', fulfillment_status: 'fulfilled', claim_status: 'unclaimed', amount_cents: 2500 });
    const [mail] = smtp.to(body.recipientEmail);
    const link = claimLinkIn(mail!.text);
    expect(link, mail!.text).to.be.a('string');
    expect(mail!.raw).not.to.include(code!);
    expect(orders[0]!.claim_token_hash).to.be.a('string').with.length(64);
  });

  it('refuses: share links (422), amounts outside the bounds (422), no stock (422), a key without gift_cards (403)', async () => {
    const gift = { product_id: 'manual:Acme:25', amount: 25 };
    expect((await send({ ...base(), type: 'ecard_copy_link', giftCard: gift })).body).to.deep.include({ success: false, reason: 'gift_share_link' });
    expect((await send({ ...base(), giftCard: { ...gift, amount: 600 } })).body).to.deep.include({ success: false, reason: 'gift_amount_invalid' });
    const noStock = await send({ ...base(), giftCard: gift });
    expect(noStock.status).to.equal(422);
    expect(noStock.body).to.deep.include({ success: false });
    const scoped = await newKey(stack.models, account.accountId, { sends: 'manage', ecards: 'view' });
    const res = await send({ ...base(), giftCard: gift }, scoped.key);
    expect(res.status).to.equal(403);
    expect(await stack.models.GiftOrder.count({ where: { account_id: account.accountId } })).to.equal(0);
  });
});
