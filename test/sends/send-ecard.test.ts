import { expect } from 'chai';
import { verifySignature } from '../../lib/signing.ts';
import { accountSecret } from '../../services/webhooks/secrets.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver } from '../helpers/receiver.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';
import { maybeRecordHistory } from '../helpers/histories.ts';
import { hookPath } from '../helpers/webhooks.ts';

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;

describe('send-ecard: email now, scheduled, share link', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  let widgetVanity: string;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    const made = await accountWithWidget(stack, { plan: 'pro', ecard: { self_hosted_url: 'https://cdn.example.com/card.png' } });
    account = made.account;
    widgetVanity = made.widget.vanity_id;
    await made.ecard.update({ email_subject: 'Happy birthday {{recipient_first_name}}!', details: '<p>Dear {{recipient_name}}, from {{sender_name}} of {{team}}</p>' });
    ecardId = made.ecard.id;
  });
  const send = (body: Record<string, unknown>, options: { key?: string; headers?: Record<string, string> } = {}) =>
    call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: options.key ?? account.liveKey, body, ...(options.headers ? { headers: options.headers } : {}) });
  const base = () => ({ ecardId, senderEmail: 'Sam@Example.com', senderName: 'Sam Sender', recipientName: 'Rita Receiver', recipientEmail: address('rita') });

  it('lists the widget\'s enabled eCards by its vanity id', async () => {
    const disabled = await insertEcard(stack.models, account.accountId, (await stack.models.Ecard.findByPk(ecardId))!.widget_id, { name: 'Off' });
    await disabled.update({ disabled: true });
    const list = expectSuccess(await call(stack.url, 'GET', `/v2/api/pub/ecard-actions/get-ecards?widgetId=${widgetVanity}`, { key: account.liveKey })) as Array<Record<string, unknown>>;
    expect(list.map((e) => e.ecardid)).to.deep.equal([ecardId]);
    expect(list[0]).to.deep.include({ name: 'Card', image_url: 'https://cdn.example.com/card.png', details: '<p>Dear {{recipient_name}}, from {{sender_name}} of {{team}}</p>' });
    const other = await newAccount(stack.models);
    const res = await call(stack.url, 'GET', `/v2/api/pub/ecard-actions/get-ecards?widgetId=${widgetVanity}`, { key: other.liveKey });
    expect(res.status).to.equal(404);
  });

  it('email now: the email arrives rendered (subject, header, merge tags, sanitized personal message, the share-page link)', async () => {
    const body = { ...base(), personalMessage: '<p>Have a <b>great</b> day<script>alert(1)</script></p>', mergeTags: { team: 'Ops' } };
    const res = await send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: true, emailsSent: 1, messages: [] });
    const sendId = res.body.sendId as string;
    expect(sendId).to.match(/^[0-9a-f-]{36}$/);
    const [mail] = smtp.to(body.recipientEmail);
    expect(mail!.subject).to.equal('Happy birthday Rita!');
    expect(mail!.headers.from).to.match(/^"?Sam Sender"? <no-reply@cardsvc\.localhost>$/);
    // Without BOUNCE_DOMAIN the envelope sender is MAIL_FROM's address (test/bounces/ has the VERP ones).
    expect(mail!.from).to.equal('no-reply@cardsvc.localhost');
    expect(mail!.headers['reply-to']).to.equal('sam@example.com');
    expect(mail!.html).to.include('Dear Rita Receiver, from Sam Sender of Ops');
    expect(mail!.html).to.include('<h1 style="font-size:24px">Happy day</h1>');
    expect(mail!.html).to.include('https://cdn.example.com/card.png');
    expect(mail!.html).to.include('<b>great</b>');
    expect(mail!.html).not.to.include('<script');
    expect(mail!.text).to.include('Dear Rita Receiver, from Sam Sender of Ops');
    const row = await stack.models.Send.findOne({ where: { send_id: sendId } });
    expect(row).to.deep.include({ status: 'sent', mode: 'email', emails_sent: 1, quota_count: 1 });
    const link = `${stack.config.publicBaseUrl}/e/${row!.stat_vanity_id}`;
    expect(mail!.html).to.include(link);
    expect(mail!.text).to.include(link);
    expect(mail!.messageId).to.equal(`<${sendId}.1@cardsvc>`);
    const [recipient] = await stack.models.SendRecipient.findAll({ where: { send_id: row!.id } });
    expect(recipient).to.deep.include({ status: 'sent', rendered_subject: 'Happy birthday Rita!', bounce_token: null });
    // The same page the email links to shows the card.
    const page = await fetch(link);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include('Dear Rita Receiver');
    const quota = await stack.models.QuotaUsage.findOne({ where: { account_id: account.accountId } });
    expect(quota!.used).to.equal(1);
    const client = await testClient();
    const described = await client.workflow.getHandle(`send/${account.accountId}/${sendId}`).describe();
    expect(described.searchAttributes).to.deep.include({ CardKind: ['send'], CardStatus: ['sent'], CardAccountId: [String(account.accountId)] });
    await maybeRecordHistory(client, `send/${account.accountId}/${sendId}`, 'send-ecard-workflow');
  });

  it('several recipients: one email each, emailsSent counts them', async () => {
    const emails = [address('a'), address('b'), address('c')];
    const res = await send({ ...base(), recipientName: ['Ann A', 'Bob B', 'Cy C'], recipientEmail: emails });
    expect(res.body).to.deep.include({ success: true, emailsSent: 3 });
    expect(emails.map((e) => smtp.to(e).length)).to.deep.equal([1, 1, 1]);
    expect(smtp.to(emails[1]!)[0]!.subject).to.equal('Happy birthday Bob!');
  });

  it('override props and the locale: a subject override with merge tags, French service words', async () => {
    const body = { ...base(), locale: 'fr-CA', overrideProps: { emailSubject: 'Bravo {{recipient_first_name}}', ecard_link: 'ignored' } };
    const res = await send(body);
    expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    const [mail] = smtp.to(body.recipientEmail);
    expect(mail!.subject).to.equal('Bravo Rita');
    expect(mail!.html).to.include('Sam Sender vous a envoyé une carte');
    expect(mail!.html).to.include('lang="fr"');
    expect(mail!.text).to.include('Ouvrir votre carte: ');
  });

  it('a hebrew send (an alias) is stored as he and renders right to left: the email and the card page', async () => {
    const body = { ...base(), locale: 'hebrew' };
    const res = await send(body);
    expect(res.body, JSON.stringify(res.body)).to.deep.include({ success: true, emailsSent: 1 });
    expect((await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!.locale).to.equal('he');
    const [mail] = smtp.to(body.recipientEmail);
    expect(mail!.html).to.match(/<html[^>]* dir="rtl"/);
    expect(mail!.html).to.include('lang="he"');
    const shared = await send({ ...base(), type: 'ecard_copy_link', locale: 'hebrew' });
    const page = await (await fetch(shared.body.shareUrl as string)).text();
    expect(page).to.match(/<html[^>]* dir="rtl"/);
  });

  it('the share page shows the envelope settings: background, colours, audio, video, auto-open, confetti', async () => {
    await stack.models.Ecard.update(
      {
        envelope_bg_image_url: 'https://cdn.example.com/bg.jpg',
        envelope_audio_url: 'https://cdn.example.com/song.mp3',
        envelope_video_url: 'https://cdn.example.com/clip.mp4',
        envelope_color_settings: JSON.stringify({ background: '#102030', accent: 'red', text: 'url(javascript:alert(1))' }),
        envelope_auto_open: true,
        envelope_confetti: true,
      },
      { where: { id: ecardId } },
    );
    const res = await send({ ...base(), type: 'ecard_copy_link' });
    const html = await (await fetch(res.body.shareUrl as string)).text();
    expect(html).to.include('url("https://cdn.example.com/bg.jpg")');
    expect(html).to.include('background: #102030');
    expect(html).to.include('<audio controls src="https://cdn.example.com/song.mp3">');
    expect(html).to.include('<video controls src="https://cdn.example.com/clip.mp4"');
    expect(html).to.include('class="envelope"');
    expect(html).to.include('data-confetti="true"');
    // A colour value that is not a plain colour falls back to the default.
    expect(html).not.to.include('javascript');
    await stack.models.Ecard.update({ envelope_auto_open: false }, { where: { id: ecardId } });
    const sealed = await (await fetch((await send({ ...base(), type: 'ecard_copy_link' })).body.shareUrl as string)).text();
    expect(sealed).to.include('class="envelope sealed"');
  });

  it('scheduled: answers at once, the email arrives after its time and not before', async () => {
    const sendAt = new Date(Date.now() + 4000);
    const body = { ...base(), sendAt: sendAt.toISOString() };
    const res = await send(body);
    expect(res.body).to.deep.include({ success: true, status: 'scheduled', scheduled_to_be_sent_at: sendAt.toISOString(), emailsSent: 0 });
    await new Promise((r) => setTimeout(r, 2000));
    expect(smtp.to(body.recipientEmail)).to.have.length(0);
    const mail = await eventually(async () => smtp.to(body.recipientEmail), (l) => l.length > 0, 15_000);
    expect(mail).to.have.length(1);
    expect(Date.now()).to.be.at.least(sendAt.getTime());
    await eventually(() => stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }), (s) => s?.status === 'sent');
  });

  it('cancel-send stops a scheduled send and gives its quota back; a sent one cannot be canceled', async () => {
    const body = { ...base(), sendAt: new Date(Date.now() + 5000).toISOString() };
    const res = await send(body);
    const sendId = res.body.sendId as string;
    expect((await stack.models.QuotaUsage.findOne({ where: { account_id: account.accountId } }))!.used).to.equal(1);
    const canceled = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/cancel-send', { key: account.liveKey, body: { sendId } });
    expect(expectSuccess(canceled)).to.deep.equal({ sendId, status: 'canceled' });
    expect((await stack.models.QuotaUsage.findOne({ where: { account_id: account.accountId } }))!.used).to.equal(0);
    const client = await testClient();
    const result = (await client.workflow.getHandle(`send/${account.accountId}/${sendId}`).result()) as { status: string };
    expect(result.status).to.equal('canceled');
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.to(body.recipientEmail)).to.have.length(0);
    const again = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/cancel-send', { key: account.liveKey, body: { sendId } });
    expect(again.status).to.equal(422);
    const other = await newAccount(stack.models);
    expect((await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/cancel-send', { key: other.liveKey, body: { sendId } })).status).to.equal(404);
  });

  it('share link: no email, a shareUrl whose page renders with a CSP; viewing it marks nothing, the open action marks the send opened once', async () => {
    const before = smtp.messages.length;
    const res = await send({ ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Friend', type: 'ecard_copy_link' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { shareUrl, statVanityId } = res.body as { shareUrl: string; statVanityId: string };
    expect(statVanityId).to.match(/^[0-9A-Za-z]{24}$/);
    expect(shareUrl).to.equal(`${stack.config.publicBaseUrl}/e/${statVanityId}`);
    expect(smtp.messages.length).to.equal(before);
    const row = await stack.models.Send.findOne({ where: { stat_vanity_id: statVanityId } });
    expect(row).to.deep.include({ mode: 'share', status: 'sent', opened_at: null, quota_count: 0 });
    const page = await fetch(shareUrl);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.match(/default-src 'none'/);
    expect(await page.text()).to.include('Dear Friend');
    expect((await row!.reload()).opened_at).to.equal(null);
    const open = await fetch(`${shareUrl}/open`, { method: 'POST', redirect: 'manual' });
    expect(open.status).to.equal(303);
    expect(open.headers.get('location')).to.equal(`/e/${statVanityId}`);
    const opened = (await row!.reload()).opened_at;
    expect(opened).to.be.instanceOf(Date);
    await fetch(`${shareUrl}/open`, { method: 'POST', redirect: 'manual' });
    expect((await row!.reload()).opened_at!.getTime()).to.equal(opened!.getTime());
    expect((await fetch(`${stack.config.publicBaseUrl}/e/NoSuchVanityIdAtAll12345`)).status).to.equal(404);
    // is_sharing works too.
    expect((await send({ ...base(), is_sharing: true })).body).to.have.property('shareUrl');
  });

  it('a sandbox key sends to the mail_sink only', async () => {
    const widget = await insertWidget(stack.models, account.sandboxAccountId);
    const ecard = await insertEcard(stack.models, account.sandboxAccountId, widget.id);
    const to = address('sandbox');
    const res = await send({ ...base(), ecardId: ecard.id, recipientEmail: to }, { key: account.sandboxKey });
    expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    expect(smtp.to(to)).to.have.length(0);
    const sunk = await stack.models.MailSinkMessage.findAll({ where: { account_id: account.sandboxAccountId } });
    expect(sunk.map((m) => [m.recipient, m.subject])).to.deep.equal([[to, 'Hello Rita Receiver']]);
    expect(await stack.models.QuotaUsage.count({ where: { account_id: account.sandboxAccountId } })).to.equal(0);
  });

  it('the ecard_shared webhook arrives signed with the spec\'s fields: sent false for email, true for a share link', async () => {
    const receiver = await testReceiver();
    const path = hookPath('shared');
    expectSuccess(await call(stack.url, 'POST', '/v2/api/webhook/ecard-shared-url', { key: account.liveKey, body: { url: `${receiver.url}${path}` } }));
    const body = { ...base(), mergeTags: { team: 'Ops' } };
    const emailed = await send(body);
    const shared = await send({ ...base(), type: 'ecard_copy_link' });
    const requests = await eventually(async () => receiver.at(path), (r) => r.length === 2, 10_000);
    const secret = (await accountSecret(stack.services, account.accountId)).secret;
    const bodies = requests.map((r) => {
      expect(verifySignature(r.headers['x-svc-signature'] as string, r.body, [secret])).to.equal(true);
      expect(r.headers['user-agent']).to.equal('CardsvcHook');
      return JSON.parse(r.body) as Array<Record<string, unknown>>;
    });
    const byType: Record<string, Record<string, unknown>> = Object.fromEntries(bodies.map((b) => [String(b[0]!.type), b[0]!]));
    expect(Object.keys(byType.email!).sort()).to.deep.equal(
      ['event_type', 'type', 'sender_request_id', 'ecardid', 'widgetid', 'vanity_id', 'sender_name', 'sender_email', 'recipient_name', 'recipient_email', 'personal_message', 'locale', 'scheduled_to_be_sent_at', 'sent', 'opened', 'merge_tags', 'override_props', 'do_notify_on_open'].sort(),
    );
    expect(byType.email).to.deep.include({ event_type: 'ecard_shared', sent: false, opened: false, ecardid: ecardId, sender_request_id: `${emailed.body.sendId as string}.1`, recipient_email: body.recipientEmail, locale: 'en', merge_tags: '{"team":"Ops"}', override_props: '', do_notify_on_open: false });
    expect(byType.ecard_copy_link).to.deep.include({ sent: true, vanity_id: shared.body.statVanityId, sender_request_id: `${shared.body.sendId as string}.1` });
  });
});

