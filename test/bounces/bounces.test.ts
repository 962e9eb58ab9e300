// Bounces (issue 34, item 3): a card goes out through the suite's SMTP server with a VERP envelope sender; the test
// then plays the remote MTA and delivers a DSN or a complaint to the bounce listener at that address. What a user
// sees: `bounced_at` on GET /pub/ecard-actions/sends/{sendId}, the suppression and its reason on the console's list,
// a later send refused as `blocked`, `ecard_bounced` signed at a real receiver (a hard bounce, a complaint; nothing
// written without a subscriber), a campaign's `counts.bounced`.
import { expect } from 'chai';
import { Op } from 'sequelize';
import { startBounceListener } from '../../app/bounce-listener.ts';
import { verifySignature } from '../../lib/signing.ts';
import { accountSecret } from '../../services/webhooks/secrets.ts';
import { apiClient, expectSuccess, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { type ConsoleClient, signedInConsole } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver, type Receiver } from '../helpers/receiver.ts';
import { testSmtpServer, type ReceivedMail, type SmtpTestServer } from '../helpers/smtp.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';
import { hookPath, webhookApi } from '../helpers/webhooks.ts';
import { complaint, deliverToListener, dsn, ehloLines } from './reports.ts';

type Json = Record<string, unknown>;
const BOUNCE_DOMAIN = 'bounces.cardsvc.test';
const VERP = /^bounces\+([0-9a-f]{32})@bounces\.cardsvc\.test$/;

describe('bounces: the listener records DSNs and complaints sent to VERP addresses', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let receiver: Receiver;
  let port: number;
  let listener: Awaited<ReturnType<typeof startBounceListener>> | undefined;
  let counter = 0;
  let account: TestAccount;
  let client: ConsoleClient;
  const address = (name: string) => `${name}@bounce${process.pid}-${++counter}.example.com`;

  before(async () => {
    // A stack of its own (its own task queue): its emails leave with VERP envelope senders.
    stack = await startStack({ BOUNCE_DOMAIN, BOUNCE_SMTP_PORT: '0', TEMPORAL_TASK_QUEUE: `cardsvc-bounces-${process.pid}` });
    smtp = await testSmtpServer();
    receiver = await testReceiver();
    listener = await startBounceListener(stack.services, { host: '127.0.0.1' });
    port = listener.port;
  });
  // Its background passes act on every account's rows (its mail queue pass sent a later file's queued mail before
  // that file's erase could find it): the stack ends with the file.
  after(async () => {
    await listener?.stop();
    await stack?.stop();
  });
  beforeEach(async () => {
    ({ account, client } = await signedInConsole(stack, { plan: 'enterprise' }));
  });

  const { api, ok } = apiClient(() => stack, () => account.liveKey);

  async function sendCard(to: string): Promise<{ sendId: string; mail: ReceivedMail; verp: string }> {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const res = await api('POST', '/pub/ecard-actions/send-ecard', { ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Ann', recipientEmail: to });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const sendId = res.body.sendId as string;
    const [mail] = await eventually(async () => smtp.to(to), (m) => m.length === 1, 15_000);
    return { sendId, mail: mail!, verp: mail!.from };
  }

  const recipientOf = async (sendId: string) => ((expectSuccess(await api('GET', `/pub/ecard-actions/sends/${sendId}`)) as Json).recipients as Json[])[0]!;
  const suppressions = async () => expectSuccess(await client.call('GET', '/suppressions')) as Json[];
  const sendAgain = async (to: string) => {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    return api('POST', '/pub/ecard-actions/send-ecard', { ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Ann', recipientEmail: to });
  };
  // send-ecard's refusal, in the spec's shape: 403 with reason `blocked` naming the address.
  const expectBlocked = (res: ApiResponse, to: string) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(403);
    expect(res.body).to.deep.include({ success: false, reason: 'blocked' });
    expect((res.body.messages as string[]).join(' ')).to.include(`${to} is on this account's suppression list`);
  };
  // The one ecard_bounced request at the receiver: delivered, signed with the account's secret, naming the send and
  // its recipient as the API reads it, with the bounce.
  const expectBounceEvent = async (path: string, endpointId: number, sendId: string, to: string, recipient: Json, bounce: Json) => {
    const [delivery] = await webhookApi(stack, account).settled(endpointId);
    expect(delivery!.status).to.equal('Delivered');
    const [request] = receiver.at(path);
    const secret = (await accountSecret(stack.services, account.accountId)).secret;
    expect(verifySignature(request!.headers['x-svc-signature'] as string, request!.body, [secret])).to.equal(true);
    const body = JSON.parse(request!.body) as { event_type: string; send: Json; recipients: Json[] };
    expect(body.event_type).to.equal('ecard_bounced');
    expect(body.send).to.include({ sendId, origin: 'single' });
    expect(body.recipients).to.deep.equal([
      { sendId, name: 'Ann', email: to, status: 'sent', sent_at: recipient.sent_at, opened_at: null, bounced_at: recipient.bounced_at, failure: null, bounce },
    ]);
  };
  const outcomeRows = () => stack.models.OutboxEvent.count({ where: { account_id: account.accountId, event_type: 'ecard_bounced' } });

  it('each email leaves with its own VERP envelope sender (128 random bits); the From header stays MAIL_FROM', async () => {
    const to = address('ann');
    const other = address('bob');
    const first = await sendCard(to);
    const second = await sendCard(other);
    expect(first.verp).to.match(VERP);
    expect(second.verp).to.match(VERP);
    expect(first.verp).to.not.equal(second.verp);
    expect(first.mail.headers.from).to.include('no-reply@cardsvc.localhost');
    expect(first.mail.headers.from).to.not.include(BOUNCE_DOMAIN);
  });

  it('a hard bounce: bounced_at set (status stays sent), the address suppressed with its reason, a later send blocked, ecard_bounced signed, once', async () => {
    const path = hookPath('bounced');
    const endpointId = await webhookApi(stack, account).subscribe('ecard_bounced', `${receiver.url}${path}`);
    const to = address('gone');
    const { sendId, mail, verp } = await sendCard(to);
    expect((await recipientOf(sendId)).bounced_at).to.equal(null);

    const report = dsn({ to: verp, finalRecipient: to, messageId: mail.messageId, status: '5.1.1' });
    expect(await deliverToListener(port, verp, report)).to.deep.equal({ accepted: true });
    const recipient = await recipientOf(sendId);
    expect(recipient.status).to.equal('sent');
    expect(recipient.bounced_at).to.be.a('string');

    const listed = (await suppressions()).find((s) => s.value === to);
    expect(listed).to.deep.include({ kind: 'email', value: to });
    expect(listed!.reason).to.equal('hard bounce 5.1.1: smtp; 550 5.1.1 <address>: Recipient address rejected: User unknown in virtual mailbox table');
    expectBlocked(await sendAgain(to), to);

    await expectBounceEvent(path, endpointId, sendId, to, recipient, { kind: 'hard', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 <address>: Recipient address rejected: User unknown in virtual mailbox table' });

    // The same DSN again: taken, and nothing changes or is emitted a second time.
    expect(await deliverToListener(port, verp, report)).to.deep.equal({ accepted: true });
    expect((await recipientOf(sendId)).bounced_at).to.equal(recipient.bounced_at);
    expect(await outcomeRows()).to.equal(1);
    expect((await suppressions()).filter((s) => s.value === to)).to.have.length(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at(path)).to.have.length(1);
  });

  it('a soft bounce (4.x.x) is recorded and counted, not suppressed: a later send to the address goes out', async () => {
    const path = hookPath('soft');
    const endpointId = await webhookApi(stack, account).subscribe('ecard_bounced', `${receiver.url}${path}`);
    const to = address('full');
    const { sendId, mail, verp } = await sendCard(to);
    const report = dsn({ to: verp, finalRecipient: to, messageId: mail.messageId, action: 'delayed', status: '4.2.2', diagnostic: '452 4.2.2 Mailbox full' });
    expect(await deliverToListener(port, verp, report)).to.deep.equal({ accepted: true });
    expect((await recipientOf(sendId)).bounced_at).to.be.a('string');
    await webhookApi(stack, account).settled(endpointId);
    const body = JSON.parse(receiver.at(path)[0]!.body) as { recipients: Json[] };
    expect(body.recipients[0]!.bounce).to.deep.equal({ kind: 'soft', status: '4.2.2', diagnostic: 'smtp; 452 4.2.2 Mailbox full' });
    expect((await suppressions()).map((s) => s.value)).to.not.include(to);
    const again = await sendAgain(to);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.sendId).to.be.a('string');
  });

  it('a hard bounce after a soft one suppresses the address and emits again; a soft one after it changes nothing', async () => {
    const to = address('later');
    const { sendId, mail, verp } = await sendCard(to);
    await webhookApi(stack, account).subscribe('ecard_bounced', `${receiver.url}${hookPath('soft-hard')}`);
    const soft = dsn({ to: verp, finalRecipient: to, messageId: mail.messageId, status: '4.4.1' });
    const hard = dsn({ to: verp, finalRecipient: to, messageId: mail.messageId, status: '5.2.1' });
    expect((await deliverToListener(port, verp, soft)).accepted).to.equal(true);
    const first = (await recipientOf(sendId)).bounced_at;
    expect((await suppressions()).map((s) => s.value)).to.not.include(to);
    expect((await deliverToListener(port, verp, hard)).accepted).to.equal(true);
    expect((await suppressions()).map((s) => s.value)).to.include(to);
    expect((await recipientOf(sendId)).bounced_at).to.equal(first);
    expect((await deliverToListener(port, verp, soft)).accepted).to.equal(true);
    expect(await outcomeRows()).to.equal(2);
    const row = await stack.models.SendRecipient.findOne({ where: { bounce_token: VERP.exec(verp)![1]! }, rejectOnEmpty: true });
    expect([row.bounce_kind, row.bounce_status]).to.deep.equal(['hard', '5.2.1']);
  });

  it('a complaint (ARF) matched by the original Message-ID suppresses the address as a complaint and emits ecard_bounced (kind complaint), signed, once; one naming another message does nothing', async () => {
    const path = hookPath('complaint');
    const endpointId = await webhookApi(stack, account).subscribe('ecard_bounced', `${receiver.url}${path}`);
    const to = address('angry');
    const { sendId, mail, verp } = await sendCard(to);
    expect((await deliverToListener(port, verp, complaint({ to: verp, messageId: '<someone-else@example.com>' }))).accepted).to.equal(true);
    expect((await recipientOf(sendId)).bounced_at).to.equal(null);
    expect((await suppressions()).map((s) => s.value)).to.not.include(to);
    expect(await outcomeRows()).to.equal(0);

    expect((await deliverToListener(port, verp, complaint({ to: verp, messageId: mail.messageId }))).accepted).to.equal(true);
    const recipient = await recipientOf(sendId);
    expect(recipient.bounced_at).to.be.a('string');
    expect((await suppressions()).find((s) => s.value === to)).to.deep.include({ kind: 'email', reason: 'complaint: abuse' });
    expectBlocked(await sendAgain(to), to);

    await expectBounceEvent(path, endpointId, sendId, to, recipient, { kind: 'complaint', status: null, diagnostic: 'abuse' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at(path)).to.have.length(1);
  });

  it('a bounce on an account with no ecard_bounced subscriber is recorded and writes no outcome event and no webhook delivery', async () => {
    // A subscription to another type only: the bounce's transaction records nothing.
    await webhookApi(stack, account).subscribe('team_member_created', `${receiver.url}${hookPath('members')}`);
    const to = address('quiet');
    const { sendId, mail, verp } = await sendCard(to);
    expect((await deliverToListener(port, verp, dsn({ to: verp, finalRecipient: to, messageId: mail.messageId, status: '5.1.1' }))).accepted).to.equal(true);
    expect((await recipientOf(sendId)).bounced_at).to.be.a('string');
    expect((await suppressions()).map((s) => s.value)).to.include(to);
    expect(await outcomeRows()).to.equal(0);
    expect(await stack.models.WebhookDelivery.count({ where: { account_id: account.accountId, event_type: 'ecard_bounced' } })).to.equal(0);
  });

  it('a DSN to an unknown token, or to another domain, is refused at RCPT with 550; nothing is written', async () => {
    const to = address('nobody');
    const { sendId, mail } = await sendCard(to);
    const unknown = `bounces+${'0'.repeat(32)}@${BOUNCE_DOMAIN}`;
    for (const rcpt of [unknown, `bounces+${'ab'.repeat(16)}@elsewhere.example`, `postmaster@${BOUNCE_DOMAIN}`]) {
      const answer = await deliverToListener(port, rcpt, dsn({ to: rcpt, finalRecipient: to, messageId: mail.messageId, status: '5.1.1' }));
      expect(answer, rcpt).to.deep.include({ accepted: false, code: 550, command: 'RCPT TO' });
    }
    expect((await recipientOf(sendId)).bounced_at).to.equal(null);
    expect((await suppressions()).map((s) => s.value)).to.not.include(to);
  });

  it('EHLO advertises the 1 MB limit and neither AUTH nor STARTTLS', async () => {
    const lines = await ehloLines(port);
    expect(lines.filter((l) => /^250[- ]SIZE 1048576$/.test(l)), JSON.stringify(lines)).to.have.length(1);
    expect(lines[0]).to.match(new RegExp(`^250-${BOUNCE_DOMAIN.replace(/\./g, '\\.')} `));
    expect(lines.join('\n')).to.not.match(/AUTH|STARTTLS/);
  });

  it('a message over 1 MB is refused with 552 (SIZE is advertised) and nothing is written', async () => {
    const to = address('big');
    const { sendId, mail, verp } = await sendCard(to);
    const report = dsn({ to: verp, finalRecipient: to, messageId: mail.messageId, status: '5.1.1' });
    const padded = report.replace('Your message could not be delivered.', `Your message could not be delivered.\r\n${'x'.repeat(998)}\r\n`.repeat(1100));
    expect(Buffer.byteLength(padded)).to.be.above(1024 * 1024);
    const answer = await deliverToListener(port, verp, padded);
    expect(answer).to.deep.include({ accepted: false, code: 552 });
    expect((await recipientOf(sendId)).bounced_at).to.equal(null);
    expect((await suppressions()).map((s) => s.value)).to.not.include(to);
  });

  it('garbage to a known token is taken without a crash and writes nothing; the listener still answers after it', async () => {
    const to = address('noise');
    const { sendId, mail, verp } = await sendCard(to);
    const garbage = [
      Buffer.from('not a message at all\r\n'),
      Buffer.from('Content-Type: multipart/report; boundary="x"\r\n\r\n--x\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\nStatus: banana\r\n--x'),
      Buffer.from([0, 255, 254, 13, 10, 1, 2, 3, 13, 10]),
      Buffer.from(dsn({ to: verp, finalRecipient: to, messageId: mail.messageId, action: 'delivered', status: '2.0.0' })),
    ];
    for (const raw of garbage) {
      const answer = await deliverToListener(port, verp, raw);
      expect(answer.accepted || (answer.code !== undefined && answer.code >= 500), JSON.stringify(answer)).to.equal(true);
    }
    expect((await recipientOf(sendId)).bounced_at).to.equal(null);
    expect(await stack.models.SendRecipient.count({ where: { bounce_token: VERP.exec(verp)![1]!, bounce_kind: { [Op.ne]: null } } })).to.equal(0);
    expect((await suppressions()).map((s) => s.value)).to.not.include(to);
    expect((await deliverToListener(port, verp, dsn({ to: verp, finalRecipient: to, messageId: mail.messageId, status: '5.1.1' }))).accepted).to.equal(true);
    expect((await recipientOf(sendId)).bounced_at).to.be.a('string');
  });

  it('a campaign: its emails carry VERP addresses too, and counts.bounced counts the recipient a DSN came back for', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Bounces', from_name: 'HR', from_email: 'hr@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] });
    const [one, two] = [address('c1'), address('c2')];
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: [{ email: one, name: 'One' }, { email: two, name: 'Two' }] });
    await ok('POST', '/campaign/send', { campaignid: id });
    await eventually(() => stack.models.Campaign.findByPk(id), (c) => c?.status === 'sent', 30_000, 200);
    const [mail] = smtp.to(one);
    expect(mail!.from).to.match(VERP);
    expect(smtp.to(two)[0]!.from).to.match(VERP);
    const counts = async () => ((expectSuccess(await api('GET', `/campaign/findOne/id/${id}`)) as Json).counts as Json);
    expect(await counts()).to.include({ sent: 2, bounced: 0 });
    expect((await deliverToListener(port, mail!.from, dsn({ to: mail!.from, finalRecipient: one, messageId: mail!.messageId, status: '5.1.1' }))).accepted).to.equal(true);
    expect(await counts()).to.include({ sent: 2, bounced: 1 });
  });
});
