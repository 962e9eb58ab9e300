import { expect } from 'chai';
import { Op } from 'sequelize';
import type { Models } from '../../models/index.ts';
import { addSuppression, suppressionHash } from '../../services/sends/accept/rules.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

let counter = 0;
const tag = crypto.randomUUID().slice(0, 8);
const address = (name: string) => `${name}-${tag}-${++counter}@example.com`;

/** Every row of the account in the tables an address can reach, as text (each text column searched at once). */
async function accountRows(models: Models, accountId: number): Promise<Record<string, string[]>> {
  const sendIds = (await models.Send.findAll({ attributes: ['id'], where: { account_id: accountId }, raw: true })).map((s) => s.id);
  const outboxIds = (await models.OutboxEvent.findAll({ attributes: ['id'], where: { account_id: accountId }, raw: true })).map((e) => e.id);
  const deliveryIds = (await models.WebhookDelivery.findAll({ attributes: ['id'], where: { [Op.or]: [{ account_id: accountId }, { outbox_id: outboxIds }] }, raw: true })).map((d) => d.id);
  const tables = {
    sends: await models.Send.findAll({ where: { account_id: accountId }, raw: true }),
    send_recipients: await models.SendRecipient.findAll({ where: { send_id: sendIds }, raw: true }),
    mail_queue: await models.MailMessage.findAll({ where: { account_id: accountId }, raw: true }),
    mail_sink: await models.MailSinkMessage.findAll({ where: { account_id: accountId }, raw: true }),
    outbox_events: await models.OutboxEvent.findAll({ where: { account_id: accountId }, raw: true }),
    webhook_attempts: await models.WebhookAttempt.findAll({ where: { delivery_id: deliveryIds }, raw: true }),
    widget_verifications: await models.WidgetVerification.findAll({ where: { account_id: accountId }, raw: true }),
    suppressions: await models.Suppression.findAll({ where: { account_id: accountId }, raw: true }),
    unsubscribe_links: await models.UnsubscribeLink.findAll({ where: { account_id: accountId }, raw: true }),
    campaign_recipients: await models.CampaignRecipient.findAll({ where: { account_id: accountId }, raw: true }),
    gift_orders: await models.GiftOrder.findAll({ where: { account_id: accountId }, raw: true }),
  };
  return Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, rows.map((r) => JSON.stringify(r).toLowerCase())]));
}

/** The tables (and how many of their rows) that still mention `text`. */
async function mentions(models: Models, accountId: number, text: string): Promise<Record<string, number>> {
  const rows = await accountRows(models, accountId);
  return Object.fromEntries(Object.entries(rows).flatMap(([name, texts]) => {
    const n = texts.filter((t) => t.includes(text.toLowerCase())).length;
    return n ? [[name, n]] : [];
  }));
}

describe('POST /pub/ecard-actions/erase-address: a stranger’s address leaves every row of the account', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  let widgetId: number;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    const made = await accountWithWidget(stack, { plan: 'pro' });
    account = made.account;
    widgetId = made.widget.id;
    ecardId = made.ecard.id;
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const send = async (from: { name: string; email: string }, to: Array<{ name: string; email: string }>, extra: Record<string, unknown> = {}) => {
    const res = await api('POST', '/pub/ecard-actions/send-ecard', {
      ecardId, senderName: from.name, senderEmail: from.email, recipientName: to.map((r) => r.name), recipientEmail: to.map((r) => r.email), ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const row = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
    return { row, recipients: await stack.models.SendRecipient.findAll({ where: { send_id: row.id }, order: [['position', 'ASC']] }) };
  };

  it('sends, recipients, read receipts, thank-yous, events, verification codes and unsubscribe links lose it; a suppression stays as a hash', async () => {
    const stella = { name: 'Stella Strangerwoman', email: address('stella') };
    const alice = { name: 'Alice Able', email: address('alice') };
    const sam = { name: 'Sam Sender', email: address('sam') };
    // Stella sends (with a message naming her address and a read receipt), and receives a card from Sam.
    const hers = await send({ ...stella, email: stella.email.toUpperCase() }, [alice], { opennotification: true, personalMessage: `Write to me at ${stella.email}` });
    const toHer = await send(sam, [stella, alice]);
    await eventually(async () => smtp.to(stella.email), (m) => m.length >= 1, 15_000);
    await eventually(async () => smtp.to(alice.email), (m) => m.length >= 2, 15_000);
    // Alice opens Stella's card (a read receipt is queued to Stella); Stella thanks Sam (a thank-you with reply-to her).
    expect((await fetch(`${stack.url}/e/${hers.recipients[0]!.page_id}/open`, { method: 'POST', redirect: 'manual' })).status).to.equal(303);
    const thanks = await call(stack.url, 'POST', `/e/${toHer.recipients[0]!.page_id}/thanks`, { body: { message: 'Thanks Sam!' } });
    expect(thanks.status, JSON.stringify(thanks.body)).to.equal(201);
    await eventually(async () => stack.models.MailMessage.count({ where: { account_id: account.accountId } }), (n) => n >= 2, 10_000);
    // A verification code she asked for, an unsubscribe link, her suppression.
    const now = new Date();
    await stack.models.WidgetVerification.create({ account_id: account.accountId, widget_id: widgetId, email: stella.email, ip_hash: 'a'.repeat(64), code_hash: 'b'.repeat(64), expires_at: now, created_at: now });
    await stack.models.UnsubscribeLink.create({ token: `t-${tag}-${counter}`, account_id: account.accountId, email: stella.email, created_at: now });
    await addSuppression(stack.services, account.accountId, 'email', stella.email);
    // Before: she is everywhere.
    expect(Object.keys(await mentions(stack.models, account.accountId, stella.email))).to.include.members([
      'sends', 'send_recipients', 'mail_queue', 'outbox_events', 'widget_verifications', 'suppressions', 'unsubscribe_links',
    ]);
    expect(await mentions(stack.models, account.accountId, 'Strangerwoman')).to.include.keys('sends', 'send_recipients', 'outbox_events');
    // Another account's rows about her are not this account's to erase.
    const other = await newAccount(stack.models);
    await addSuppression(stack.services, other.accountId, 'email', stella.email);

    const res = await api('POST', '/pub/ecard-actions/erase-address', { email: `  ${stella.email.toUpperCase()} ` });
    expect(expectSuccess(res)).to.deep.equal({ erased: true, suppressed: true });

    expect(await mentions(stack.models, account.accountId, stella.email)).to.deep.equal({});
    expect(await mentions(stack.models, account.accountId, 'Strangerwoman')).to.deep.equal({});
    // The others keep theirs; the rows stay (counts, quota).
    const after = await mentions(stack.models, account.accountId, alice.email);
    expect(after).to.include.keys('send_recipients', 'outbox_events');
    expect((await stack.models.Send.findByPk(toHer.row.id))!.sender_email).to.equal(sam.email);
    expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(2);
    // She stays suppressed, by the hash; the other account's entry is untouched.
    expect((await stack.models.Suppression.findAll({ where: { account_id: account.accountId }, raw: true })).map((s) => s.value)).to.deep.equal([suppressionHash(stella.email)]);
    expect(await stack.models.Suppression.count({ where: { account_id: other.accountId, value: stella.email } })).to.equal(1);
    const again = await api('POST', '/pub/ecard-actions/send-ecard', { ecardId, senderName: 'Sam', senderEmail: sam.email, recipientName: 'Stella', recipientEmail: stella.email });
    expect(again.status, JSON.stringify(again.body)).to.equal(403);
    expect(again.body.code).to.equal('blocked');
    // Erasing again is harmless (nothing left; still suppressed).
    expect(expectSuccess(await api('POST', '/pub/ecard-actions/erase-address', { email: stella.email }))).to.deep.equal({ erased: true, suppressed: true });
  });

  it('an address never suppressed answers suppressed: false; a queued mail to it never leaves; a gift ordered for it loses it', async () => {
    const stranger = address('passerby');
    const hers = await send({ name: 'Pat Passerby', email: stranger }, [{ name: 'Alice', email: address('alice') }], { type: 'ecard_copy_link' });
    // The queue's pass would send a message written straight into the table before the erase arrives (it was seen
    // to, once in CI): the passes wait while this mail is queued, so the erase is what finds it.
    await stack.services.background.stop();
    try {
      await stack.models.MailMessage.create({ account_id: account.accountId, kind: 'read_receipt', recipient: stranger, subject: 'Alice opened your eCard', text_body: 'x', created_at: new Date(Date.now() + 3600_000) });
      // A gift ordered for the address (by address, no member).
      await stack.models.GiftOrder.create({
        account_id: account.accountId, order_key: `erase:${tag}:${++counter}`, scope: 'widget', campaign_id: null, automation_id: null, send_id: null, send_recipient_id: null,
        member_id: null, recipient_name: 'Pat Passerby', recipient_email: stranger.toUpperCase(), product_id: 'manual:Acme:25', brand: 'Acme', amount_cents: 2500, currency: 'USD',
        source: 'manual', spend_day: '2026-03-18',
      });
      expect(await mentions(stack.models, account.accountId, stranger)).to.include.keys('sends', 'gift_orders', 'mail_queue');
      expect(hers.row.sender_email).to.equal(stranger);
      expect(expectSuccess(await api('POST', '/pub/ecard-actions/erase-address', { email: stranger }))).to.deep.equal({ erased: true, suppressed: false });
    } finally {
      stack.services.background.start();
    }
    const queued = await stack.models.MailMessage.findAll({ where: { account_id: account.accountId, kind: 'read_receipt' } });
    expect(queued.map((m) => [m.recipient, m.skip_reason, m.sent_at !== null])).to.deep.equal([['', 'erased', true]]);
    expect(await mentions(stack.models, account.accountId, stranger)).to.deep.equal({});
    expect(await mentions(stack.models, account.accountId, 'Passerby')).to.deep.equal({});
  });

  it('a scheduled card to it (with another recipient) or from it is canceled for it alone; the other recipient keeps theirs', async () => {
    const stranger = address('sched');
    const alice = { name: 'Alice', email: address('alice') };
    const sendAt = new Date(Date.now() + 2 * 24 * 3600_000).toISOString();
    const toBoth = await send({ name: 'Sam', email: address('sam') }, [{ name: 'Sid Stranger', email: stranger }, alice], { sendAt });
    const fromIt = await send({ name: 'Sid Stranger', email: stranger }, [alice], { sendAt });
    expectSuccess(await api('POST', '/pub/ecard-actions/erase-address', { email: stranger }));
    const rowsOf = async (id: number) => (await stack.models.SendRecipient.findAll({ where: { send_id: id }, order: [['position', 'ASC']] })).map((r) => [r.recipient_email, r.status]);
    expect(await rowsOf(toBoth.row.id)).to.deep.equal([[null, 'canceled'], [alice.email, 'pending']]);
    expect(await rowsOf(fromIt.row.id)).to.deep.equal([[alice.email, 'canceled']]);
    expect(await mentions(stack.models, account.accountId, stranger)).to.deep.equal({});
  });

  it('a member of the directory is 422 directory_member (erased as a member); a malformed address is 400; without sends: manage 403', async () => {
    const memberEmail = address('member');
    const member = await stack.models.TeamMember.create({ account_id: account.accountId, email: memberEmail });
    const res = await api('POST', '/pub/ecard-actions/erase-address', { email: memberEmail.toUpperCase() });
    expectFailure(res, 422, 'directory_member');
    expect(res.body.member_id).to.equal(member.id);
    expectFailure(await api('POST', '/pub/ecard-actions/erase-address', { email: 'not an address' }), 400, 'invalid_parameter');
    expectFailure(await api('POST', '/pub/ecard-actions/erase-address', {}), 422, 'missing_field');
    const viewOnly = (await newKey(stack.models, account.accountId, { sends: 'view' })).key;
    expectFailure(await api('POST', '/pub/ecard-actions/erase-address', { email: address('x') }, viewOnly), 403, 'key_out_of_scope');
  });

  it('erasing a member drops the widget verification rows of its address', async () => {
    const memberEmail = address('member');
    await stack.models.TeamMember.create({ account_id: account.accountId, email: memberEmail });
    const now = new Date();
    const row = (email: string) =>
      stack.models.WidgetVerification.create({ account_id: account.accountId, widget_id: widgetId, email, ip_hash: 'a'.repeat(64), code_hash: null, expires_at: now, created_at: now });
    await row(memberEmail);
    const bystander = await row(address('bystander'));
    expectSuccess(await api('POST', '/pub/team-member-actions/delete', { email: memberEmail }));
    expect((await stack.models.WidgetVerification.findAll({ where: { account_id: account.accountId } })).map((v) => v.id)).to.deep.equal([bystander.id]);
  });
});
