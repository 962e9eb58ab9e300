import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver } from '../helpers/receiver.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { hookPath } from '../helpers/webhooks.ts';

let counter = 0;
// A tag of this run and file: addresses (and so the mail each test looks for) are never another test's.
const tag = crypto.randomUUID().slice(0, 8);
const address = (name: string) => `${name}-${tag}-${++counter}@example.com`;

describe('read receipts: opennotification emails the sender once per recipient at the first open', function () {
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
    await made.ecard.update({ email_subject: 'Happy birthday {{recipient_name}}' });
    ecardId = made.ecard.id;
  });

  const openAction = (pageId: string) => fetch(`${stack.url}/e/${pageId}/open`, { method: 'POST', redirect: 'manual' });
  const queued = (sender: string) => stack.models.MailMessage.findAll({ where: { recipient: sender }, order: [['id', 'ASC']] });

  /** A send to Alice and Bob from a sender of its own; their page ids in order. */
  async function sendToTwo(extra: Record<string, unknown>) {
    const sender = address('sam');
    const body = { ecardId, senderEmail: sender, senderName: 'Sam Sender', recipientName: ['Alice Able', 'Bob Baker'], recipientEmail: [address('alice'), address('bob')], ...extra };
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const send = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
    const recipients = await stack.models.SendRecipient.findAll({ where: { send_id: send.id }, order: [['position', 'ASC']] });
    return { sender, send, pages: recipients.map((r) => r.page_id!) };
  }

  it('one recipient opening twice (two at once, then again) sends exactly one notice, naming that recipient', async () => {
    const { sender, send, pages } = await sendToTwo({ opennotification: true });
    expect(send.notify_on_open).to.equal(true);
    const opens = await Promise.all([openAction(pages[0]!), openAction(pages[0]!)]);
    expect(opens.map((r) => r.status)).to.deep.equal([303, 303]);
    expect((await openAction(pages[0]!)).status).to.equal(303);
    const notices = await eventually(async () => smtp.to(sender), (m) => m.length > 0, 10_000);
    expect(notices.map((m) => m.subject)).to.deep.equal(['Alice Able opened your eCard']);
    expect(notices[0]!.text).to.include('Alice Able opened the eCard “Happy birthday Alice Able” you sent.');
    expect(notices[0]!.text).to.not.include('Bob');
    // One row was ever queued for the sender, so no second notice can follow.
    const rows = await queued(sender);
    expect(rows.map((r) => r.kind)).to.deep.equal(['read_receipt']);
  });

  it('each recipient\'s first open gets its own notice', async () => {
    const { sender, pages } = await sendToTwo({ opennotification: 'true' });
    await openAction(pages[0]!);
    await openAction(pages[1]!);
    const notices = await eventually(async () => smtp.to(sender), (m) => m.length === 2, 10_000);
    expect(notices.map((m) => m.subject).sort()).to.deep.equal(['Alice Able opened your eCard', 'Bob Baker opened your eCard']);
  });

  it('a recipient without a name is named by their address, and one with neither (a share link) as "Someone"', async () => {
    const sender = address('sam');
    const nameless = address('nameless');
    const send = async (body: Record<string, unknown>) => {
      const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
        key: account.liveKey,
        body: { ecardId, senderEmail: sender, senderName: 'Sam', opennotification: true, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const row = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
      return (await stack.models.SendRecipient.findOne({ where: { send_id: row.id } }))!.page_id!;
    };
    await openAction(await send({ recipientName: ' ', recipientEmail: nameless }));
    await openAction(await send({ recipientName: '', type: 'ecard_copy_link' }));
    const notices = await eventually(async () => smtp.to(sender), (m) => m.length === 2, 10_000);
    expect(notices.map((m) => m.subject).sort()).to.deep.equal([`${nameless} opened your eCard`, 'Someone opened your eCard'].sort());
  });

  it('without opennotification (or with false) an open queues nothing for the sender', async () => {
    for (const extra of [{}, { opennotification: false }]) {
      const { sender, send, pages } = await sendToTwo(extra);
      expect(send.notify_on_open).to.equal(false);
      expect((await openAction(pages[0]!)).status).to.equal(303);
      expect((await send.reload()).opened_at).to.be.instanceOf(Date);
      expect(await queued(sender)).to.deep.equal([]);
    }
  });

  it('a bad opennotification is refused with 400 and nothing is sent', async () => {
    const before = await stack.models.Send.count({ where: { account_id: account.accountId } });
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: account.liveKey,
      body: { ecardId, senderEmail: address('sam'), senderName: 'Sam', recipientName: 'Alice', recipientEmail: address('alice'), opennotification: 'sometimes' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(before);
  });

  it('ecard_shared carries do_notify_on_open as the send asked', async () => {
    const receiver = await testReceiver();
    const path = hookPath('receipts');
    expectSuccess(await call(stack.url, 'POST', '/v2/api/webhook/ecard-shared-url', { key: account.liveKey, body: { url: `${receiver.url}${path}` } }));
    await sendToTwo({ opennotification: true });
    await sendToTwo({});
    const requests = await eventually(async () => receiver.at(path), (r) => r.length === 2, 10_000);
    const flags = requests.map((r) => (JSON.parse(r.body) as Array<{ do_notify_on_open: unknown }>).map((e) => e.do_notify_on_open));
    expect(flags.sort()).to.deep.equal([[false, false], [true, true]]);
  });

  it('a suppressed sender gets no notice: the message is recorded as skipped, with no body', async () => {
    const { sender, pages } = await sendToTwo({ opennotification: true });
    await stack.models.Suppression.create({ account_id: account.accountId, kind: 'email', value: sender, created_at: new Date() });
    await openAction(pages[0]!);
    const [skipped] = await queued(sender);
    expect(skipped).to.deep.include({ kind: 'read_receipt', skip_reason: 'suppressed', text_body: '' });
    expect(skipped!.sent_at).to.be.instanceOf(Date);
    // A notice queued after it reaches SMTP: the queue has passed the skipped one, which never went out.
    const control = await sendToTwo({ opennotification: true });
    await openAction(control.pages[0]!);
    await eventually(async () => smtp.to(control.sender), (m) => m.length === 1, 10_000);
    expect(smtp.to(sender)).to.deep.equal([]);
  });

  it('a sender whose domain is blocked gets no notice either', async () => {
    const { sender, pages } = await sendToTwo({ opennotification: true });
    await stack.models.Suppression.create({ account_id: account.accountId, kind: 'domain', value: 'example.com', created_at: new Date() });
    await openAction(pages[1]!);
    expect((await queued(sender)).map((r) => r.skip_reason)).to.deep.equal(['suppressed']);
  });
});
