import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectFailure, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

let counter = 0;
// A tag of this run and file: addresses (and so the mail each test looks for) are never another test's.
const tag = crypto.randomUUID().slice(0, 8);
const address = (name: string) => `${name}-${tag}-${++counter}@example.com`;

describe('"Say thank you": POST /e/<id>/thanks emails the sender, at most three times per recipient', function () {
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
    await made.ecard.update({ email_subject: 'Well done {{recipient_name}}' });
    ecardId = made.ecard.id;
  });

  /** A send from a sender of its own to Alice (and Bob with `two`), made with `key`; its page ids in order. */
  async function sendCard(options: { key?: string; two?: boolean; extra?: Record<string, unknown> } = {}) {
    const sender = address('sam');
    const [alice, bob] = [address('alice'), address('bob')];
    const body = {
      ecardId,
      senderEmail: sender,
      senderName: 'Sam Sender',
      recipientName: options.two ? ['Alice Able', 'Bob Baker'] : 'Alice Able',
      recipientEmail: options.two ? [alice, bob] : alice,
      ...options.extra,
    };
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: options.key ?? account.liveKey, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const send = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
    const recipients = await stack.models.SendRecipient.findAll({ where: { send_id: send.id }, order: [['position', 'ASC']] });
    return { sender, alice, send, pages: recipients.map((r) => r.page_id!) };
  }

  const postForm = (pageId: string, fields: Record<string, string>) =>
    fetch(`${stack.url}/e/${pageId}/thanks`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  const postJson = (pageId: string, body: unknown) => call(stack.url, 'POST', `/e/${pageId}/thanks`, { body });
  const queued = (sender: string) => stack.models.MailMessage.findAll({ where: { recipient: sender }, order: [['id', 'ASC']] });

  it('a form post answers 303 back to the card with ?thanks=sent, and the sender gets the message with reply-to the recipient', async () => {
    const { sender, alice, pages } = await sendCard();
    const res = await postForm(pages[0]!, { message: 'Thank you so much!\r\nSee you soon.' });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/e/${pages[0]}?thanks=sent`);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const [mail] = await eventually(async () => smtp.to(sender), (m) => m.length === 1, 10_000);
    expect(mail!.subject).to.equal('Alice Able says thank you');
    expect(mail!.text).to.include('Alice Able replied to the eCard “Well done Alice Able” you sent:');
    expect(mail!.text).to.match(/Thank you so much!\r?\nSee you soon\./);
    expect(mail!.headers['reply-to']).to.include(alice);
  });

  it('a JSON post answers 201 with what is left, and the message reaches the sender', async () => {
    const { sender, pages } = await sendCard();
    const res = await postJson(pages[0]!, { message: 'Merci 🎉' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.deep.equal({ success: true, data: { sent: true, remaining: 2 }, messages: [] });
    const [mail] = await eventually(async () => smtp.to(sender), (m) => m.length === 1, 10_000);
    expect(mail!.text).to.include('Merci 🎉');
  });

  it('a form and a JSON client share the three thank-yous: the form comes back 303 to the card, JSON is answered 201 (no redirect), the fourth of either is 429', async () => {
    const { sender, pages } = await sendCard();
    const form = await postForm(pages[0]!, { message: 'From the page' });
    expect([form.status, form.headers.get('location')]).to.deep.equal([303, `/e/${pages[0]}?thanks=sent`]);
    const json = await call(stack.url, 'POST', `/e/${pages[0]}/thanks`, { rawBody: JSON.stringify({ message: 'From a script' }), headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(json.status, JSON.stringify(json.body)).to.equal(201);
    expect(json.headers.get('location')).to.equal(null);
    expect(json.body).to.deep.include({ success: true, data: { sent: true, remaining: 1 } });
    expect((await postForm(pages[0]!, { message: 'Third' })).status).to.equal(303);
    expectFailure(await postJson(pages[0]!, { message: 'Fourth' }), 429, 'thanks_limit');
    expect((await postForm(pages[0]!, { message: 'Fourth again' })).status).to.equal(429);
    await eventually(async () => smtp.to(sender), (m) => m.length === 3, 10_000);
    // Another site's script cannot post JSON here: a browser asks first, and nothing allows it.
    const preflight = await fetch(`${stack.url}/e/${pages[0]}/thanks`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('the fourth thank-you for the same page is 429 (form: a page in the send\'s language with the way back; JSON: thanks_limit) and queues nothing', async () => {
    const { sender, pages } = await sendCard();
    for (let i = 1; i <= 3; i++) expect((await postForm(pages[0]!, { message: `Thanks ${i}` })).status).to.equal(303);
    const form = await postForm(pages[0]!, { message: 'Thanks 4' });
    expect(form.status).to.equal(429);
    expect(form.headers.get('content-type')).to.match(/^text\/html/);
    const page = await form.text();
    expect(page).to.include('You have already sent three thank-yous for this card.').and.include(`href="/e/${pages[0]}"`).and.include('Back to the eCard');
    expectFailure(await postJson(pages[0]!, { message: 'Thanks 5' }), 429, 'thanks_limit');
    expect((await queued(sender)).map((r) => r.kind)).to.deep.equal(['thanks', 'thanks', 'thanks']);
    const mails = await eventually(async () => smtp.to(sender), (m) => m.length === 3, 10_000);
    expect(mails.map((m) => m.text.includes('Thanks 4') || m.text.includes('Thanks 5'))).to.deep.equal([false, false, false]);
  });

  it('five posts at once: exactly three are taken, two are 429', async () => {
    const { sender, send, pages } = await sendCard();
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => postJson(pages[0]!, { message: `At once ${i}` })));
    expect(answers.map((r) => r.status).sort()).to.deep.equal([201, 201, 201, 429, 429]);
    expect(await queued(sender)).to.have.length(3);
    const [recipient] = await stack.models.SendRecipient.findAll({ where: { send_id: send.id } });
    expect(recipient!.thanks_count).to.equal(3);
  });

  it('the limit is per recipient: another recipient of the same send may still say thank you', async () => {
    const { sender, pages } = await sendCard({ two: true });
    for (let i = 1; i <= 3; i++) await postJson(pages[0]!, { message: `From Alice ${i}` });
    expect((await postJson(pages[1]!, { message: 'From Bob' })).status).to.equal(201);
    expect((await queued(sender)).map((r) => r.subject).at(-1)).to.equal('Bob Baker says thank you');
  });

  it('1,000 characters are taken; 1,001 are 400 (form: a readable page; JSON: invalid_parameter), nothing queued', async () => {
    const { sender, pages } = await sendCard();
    const tooLong = 'a'.repeat(1001);
    const form = await postForm(pages[0]!, { message: tooLong });
    expect(form.status).to.equal(400);
    expect(await form.text()).to.include('Please write a message of 1 to 1,000 characters.').and.include('Back to the eCard');
    expectFailure(await postJson(pages[0]!, { message: tooLong }), 400, 'invalid_parameter');
    // 1,001 emoji are 2,002 UTF-16 units; 1,000 are 1,000 characters, taken.
    expectFailure(await postJson(pages[0]!, { message: '🎉'.repeat(1001) }), 400, 'invalid_parameter');
    expect(await queued(sender)).to.deep.equal([]);
    expect((await postJson(pages[0]!, { message: '🎉'.repeat(1000) })).status).to.equal(201);
    expect((await postForm(pages[0]!, { message: 'b'.repeat(1000) })).status).to.equal(303);
    expect(await queued(sender)).to.have.length(2);
  });

  it('an empty, blank, missing, non-text or control-character message is 400 and nothing is queued', async () => {
    const { sender, pages } = await sendCard();
    for (const fields of [{ message: '' }, { message: '   \n ' }, {}, { message: 'nul \u0000 inside' }] as Array<Record<string, string>>) {
      expect((await postForm(pages[0]!, fields)).status, JSON.stringify(fields)).to.equal(400);
    }
    for (const body of [{ message: '' }, {}, { message: 42 }, { message: ['a'] }, { message: null }, { message: 'bell \u0007' }]) {
      expectFailure(await postJson(pages[0]!, body), 400, 'invalid_parameter');
    }
    expect(await queued(sender)).to.deep.equal([]);
    const [recipient] = await stack.models.SendRecipient.findAll({ where: { page_id: pages[0]! } });
    expect(recipient!.thanks_count).to.equal(0);
  });

  it('an unknown page, and the shared id of an old multi-recipient send (nobody\'s page), are 404 like the open action', async () => {
    const { sender, send } = await sendCard({ two: true });
    const form = await postForm('NoSuchPageIdAtAll123456', { message: 'Thanks' });
    expect(form.status).to.equal(404);
    expect(await form.text()).to.equal('This eCard does not exist, or it has not been sent.');
    expectFailure(await postJson('NoSuchPageIdAtAll123456', { message: 'Thanks' }), 404, 'not_found');
    expect((await postForm('short', { message: 'Thanks' })).status).to.equal(404);
    // What a send accepted before recipients had pages looks like: no page ids, one shared id.
    await stack.models.SendRecipient.update({ page_id: null }, { where: { send_id: send.id } });
    expect((await postForm(send.stat_vanity_id, { message: 'Thanks' })).status).to.equal(404);
    expect(await queued(sender)).to.deep.equal([]);
  });

  it('a body of another type is 415 and a JSON body that is not an object 400, nothing queued', async () => {
    const { sender, pages } = await sendCard();
    const text = await fetch(`${stack.url}/e/${pages[0]}/thanks`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'message=hi' });
    expect(text.status).to.equal(415);
    const array = await call(stack.url, 'POST', `/e/${pages[0]}/thanks`, { rawBody: '["hi"]', headers: { 'Content-Type': 'application/json' } });
    expect(array.status).to.equal(400);
    expect(await queued(sender)).to.deep.equal([]);
  });

  it('a suppressed sender gets no thank-you: the post is answered as usual, the message recorded as skipped without its text', async () => {
    const { sender, pages } = await sendCard();
    await stack.models.Suppression.create({ account_id: account.accountId, kind: 'email', value: sender, created_at: new Date() });
    expect((await postForm(pages[0]!, { message: 'Secret thanks' })).status).to.equal(303);
    const [skipped] = await queued(sender);
    expect(skipped).to.deep.include({ kind: 'thanks', skip_reason: 'suppressed', text_body: '' });
    // A thank-you queued after it reaches SMTP: the queue has passed the skipped one, which never went out.
    const control = await sendCard();
    await postForm(control.pages[0]!, { message: 'Control' });
    await eventually(async () => smtp.to(control.sender), (m) => m.length === 1, 10_000);
    expect(smtp.to(sender)).to.deep.equal([]);
    expect(smtp.messages.some((m) => m.text.includes('Secret thanks'))).to.equal(false);
  });

  it('a sandbox account\'s thank-you goes to its sandbox outbox (mail_sink), never SMTP', async () => {
    const widget = await insertWidget(stack.models, account.sandboxAccountId);
    const ecard = await insertEcard(stack.models, account.sandboxAccountId, widget.id);
    ecardId = ecard.id;
    const { sender, pages } = await sendCard({ key: account.sandboxKey });
    expect((await postForm(pages[0]!, { message: 'Sandbox thanks' })).status).to.equal(303);
    const sunk = await eventually(
      () => stack.models.MailSinkMessage.findAll({ where: { account_id: account.sandboxAccountId, recipient: sender } }),
      (rows) => rows.length === 1,
      10_000,
    );
    expect(sunk[0]!.subject).to.equal('Alice Able says thank you');
    expect(sunk[0]!.text_body).to.include('Sandbox thanks');
    expect(sunk[0]!.reply_to).to.include('alice-');
    const [row] = await queued(sender);
    expect(row!.sent_at).to.be.instanceOf(Date);
    expect(smtp.to(sender)).to.deep.equal([]);
  });

  it('once sent, the queued message keeps no body', async () => {
    const { sender, pages } = await sendCard();
    await postForm(pages[0]!, { message: 'Private words' });
    await eventually(async () => smtp.to(sender), (m) => m.length === 1, 10_000);
    const [row] = await eventually(() => queued(sender), (rows) => rows[0]?.text_body === '');
    expect(row!.sent_at).to.be.instanceOf(Date);
    expect(row!.skip_reason).to.equal(null);
  });
});
