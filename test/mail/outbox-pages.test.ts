import { expect } from 'chai';
import Handlebars from 'handlebars';
import { expectSuccess, type TestAccount } from '../helpers/api.ts';
import { hidden, keptEmail, ownerOnPages, pageClient, sandboxEmail, signedInConsole, type signedInPages } from '../helpers/console.ts';
import { startStack, testStack, type TestStack } from '../helpers/stack.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { KEPT_EMAIL_CSP } from '../../api/console/outbox/pages.ts';

type Pages = Awaited<ReturnType<typeof signedInPages>>;

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;

describe('console pages: the outbox', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const signedIn = () => ownerOnPages(stack, 'pro');

  const sandboxSend = (account: TestAccount, recipientEmail: string) => sandboxEmail(stack, account, recipientEmail);

  /** Switches by the layout's mode form, as the button does. */
  async function switchMode({ browser, csrf }: Pages, expected: 'live' | 'sandbox') {
    const html = await (await browser.get('/v2/console/outbox')).text();
    expect(hidden(html, 'mode')).to.equal(expected);
    const res = await browser.post('/v2/console/mode', { _csrf: csrf, mode: hidden(html, 'mode') });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal('/v2/console/');
  }

  it('in live mode (SMTP) says where mail goes and to switch; in sandbox mode lists the sandbox’s emails and shows one in a sandboxed iframe', async () => {
    const pages = await signedIn();
    const { account, browser } = pages;
    const first = await sandboxSend(account, address('first'));
    const second = await sandboxSend(account, address('second'));
    const hostile = await stack.models.MailSinkMessage.create({
      account_id: account.sandboxAccountId, message_id: `<hostile-${process.pid}-${++counter}@example.com>`, sender: 'Sam <sam@example.com>', recipient: address('hostile'),
      reply_to: null, subject: 'Hi <b>there</b>', text_body: 'plain <text>', html_body: `<p onclick="x()">Hi</p><script>alert('x')</script>"&`, created_at: new Date(),
    });

    const live = await browser.get('/v2/console/outbox');
    const liveHtml = await live.text();
    expect(live.status).to.equal(200);
    expect(liveHtml).to.include('Switch to the sandbox').and.include('Switch to sandbox</button>').and.not.include(first.recipient);
    expect(liveHtml).to.include(`Live emails go out to their recipients through the SMTP server at ${new URL((await testSmtpServer()).url).hostname} and are not kept here.`);
    const liveOne = await (await browser.get(`/v2/console/outbox/${first.id}`)).text();
    expect(liveOne).to.include('Switch to the sandbox').and.not.include('<iframe');

    await switchMode(pages, 'sandbox');
    const list = await browser.get('/v2/console/outbox');
    const html = await list.text();
    expect(list.status).to.equal(200);
    expect(html).to.include('Sandbox: nothing here reaches real people').and.include('Sandbox emails never leave').and.include('Emails (3)').and.include('Hi &lt;b&gt;there&lt;/b&gt;');
    const links = [...html.matchAll(/href="\/v2\/console\/outbox\/(\d+)"/g)].map((m) => Number(m[1]));
    expect(links).to.deep.equal([hostile.id, second.id, first.id]);
    expect(html).to.include(`<td>${second.recipient}</td>`);

    const one = await browser.get(`/v2/console/outbox/${first.id}`);
    const message = await one.text();
    expect(one.status).to.equal(200);
    expect(first.html_body).to.be.a('string').and.include('\n');
    // The HTML is its own document, framed without any sandbox token.
    expect(message).to.include(`<iframe sandbox src="/v2/console/outbox/${first.id}/html" title="The email as its recipient sees it"`);
    expect(message).to.include(`<dd>${first.recipient}</dd>`).and.include(Handlebars.escapeExpression(first.text_body)).and.not.include('srcdoc');

    const shown = await (await browser.get(`/v2/console/outbox/${hostile.id}`)).text();
    expect(shown).to.include('<pre class="email-text">plain &lt;text&gt;</pre>').and.not.include('allow-scripts').and.not.include('<script>');

    await switchMode(pages, 'live');
    expect(await (await browser.get('/v2/console/outbox')).text()).to.include('Switch to the sandbox').and.not.include(first.recipient);
  });

  it('serves a kept email’s HTML as its own document under the email’s policy (inline styles, no scripts); another account’s id → 404', async () => {
    const pages = await signedIn();
    const other = await signedIn();
    const mine = await sandboxSend(pages.account, address('mine'));
    const theirs = await sandboxSend(other.account, address('theirs-html'));
    const hostile = await stack.models.MailSinkMessage.create({
      account_id: pages.account.sandboxAccountId, message_id: `<hostile-${process.pid}-${++counter}@example.com>`, sender: 'Sam <sam@example.com>', recipient: address('hostile'),
      reply_to: null, subject: 'Hi', text_body: 'plain', html_body: `<p style="color: red">Hi</p><script>alert('x')</script>`, created_at: new Date(),
    });
    const textOnly = await stack.models.MailSinkMessage.create({
      account_id: pages.account.sandboxAccountId, message_id: `<text-${process.pid}-${++counter}@example.com>`, sender: 'Sam <sam@example.com>', recipient: address('text'),
      reply_to: null, subject: 'Text only', text_body: 'plain', html_body: null, created_at: new Date(),
    });
    // Live mode with SMTP keeps nothing: no frame either.
    expect((await pages.browser.get(`/v2/console/outbox/${mine.id}/html`)).status).to.equal(404);
    await switchMode(pages, 'sandbox');

    const res = await pages.browser.get(`/v2/console/outbox/${mine.id}/html`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy');
    expect(csp).to.equal(`${KEPT_EMAIL_CSP}; frame-ancestors 'self'`);
    expect(csp).to.include("default-src 'none'").and.include("style-src 'unsafe-inline'").and.include('sandbox').and.not.include('script-src');
    expect(res.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
    expect(await res.text()).to.equal(mine.html_body);
    // The email's bytes as stored (its script cannot run: no script-src, and the CSP sandbox).
    expect(await (await pages.browser.get(`/v2/console/outbox/${hostile.id}/html`)).text()).to.equal(hostile.html_body);

    for (const id of [theirs.id, textOnly.id, 999999999]) {
      const refused = await pages.browser.get(`/v2/console/outbox/${id}/html`);
      expect(refused.status, String(id)).to.equal(404);
      expect(await refused.text()).not.to.include(theirs.recipient).and.not.include(theirs.html_body!.slice(0, 200));
    }
    expect((await pages.browser.get('/v2/console/outbox/abc/html')).status).to.equal(400);
    const anonymous = await pageClient(stack.url).get(`/v2/console/outbox/${mine.id}/html`);
    expect(anonymous.status).to.equal(303);
  });

  it('another account’s message or an unknown id → 404, a bad id → 400; no session → 303 to sign-in', async () => {
    const pages = await signedIn();
    const other = await signedIn();
    const theirs = await sandboxSend(other.account, address('theirs'));
    await switchMode(pages, 'sandbox');
    const foreign = await pages.browser.get(`/v2/console/outbox/${theirs.id}`);
    const html = await foreign.text();
    expect(foreign.status).to.equal(404);
    expect(html).to.include('Something went wrong').and.not.include(theirs.recipient);
    expect((await pages.browser.get('/v2/console/outbox/999999999')).status).to.equal(404);
    expect((await pages.browser.get('/v2/console/outbox/abc')).status).to.equal(400);
    expect(await (await pages.browser.get('/v2/console/outbox')).text()).to.include('Emails (0)').and.include('No emails yet: sends made with the sandbox key land here.').and.not.include(theirs.recipient);
    // B still reads its own.
    await switchMode(other, 'sandbox');
    expect(await (await other.browser.get(`/v2/console/outbox/${theirs.id}`)).text()).to.include(`<dd>${theirs.recipient}</dd>`);

    const anonymous = pageClient(stack.url);
    const res = await anonymous.get(`/v2/console/outbox/${theirs.id}`);
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/v2/console/sign-in?next=${encodeURIComponent(`/v2/console/outbox/${theirs.id}`)}`);
  });
});

describe('console pages: the outbox under MAIL_TRANSPORT=sink (npm start without SMTP)', function () {
  this.timeout(90_000);
  let stack: TestStack;
  before(async () => {
    // Its own task queues: the suite's worker (SMTP) must not run this stack's sends.
    const queue = `cardsvc-sink-${process.pid}`;
    stack = await startStack({ MAIL_TRANSPORT: 'sink', TEMPORAL_TASK_QUEUE: queue, TEMPORAL_BULK_TASK_QUEUE: `${queue}-bulk` });
  });
  // Stopped with this file: its background passes (the mail queue's among them) would otherwise send later files'
  // queued mail to its sink instead of the suite's SMTP server (test/mail/queue.test.ts failed so in CI).
  after(async () => {
    await stack?.stop();
  });

  it('lists the live account’s emails a real live send kept in the sink, says why they are kept, and shows one framed', async () => {
    const pages = await ownerOnPages(stack, 'pro');
    const other = await ownerOnPages(stack, 'pro');
    const recipient = address('live');
    const kept = await keptEmail(stack, pages.account, recipient, 'live');
    const theirs = await keptEmail(stack, other.account, address('live-theirs'), 'live');
    expect((await testSmtpServer()).to(recipient)).to.have.length(0);

    const list = await pages.browser.get('/v2/console/outbox');
    const html = await list.text();
    expect(list.status).to.equal(200);
    expect(hidden(html, 'mode')).to.equal('sandbox');
    expect(html).to.include('Live emails are not sent: MAIL_TRANSPORT is set to sink, so they are kept here, in the mail sink, and reach no one.');
    expect(html).to.include('Emails (1)').and.include(`<td>${recipient}</td>`).and.include(`href="/v2/console/outbox/${kept.id}"`).and.not.include(theirs.recipient);

    const one = await (await pages.browser.get(`/v2/console/outbox/${kept.id}`)).text();
    expect(one).to.include(`<dd>${recipient}</dd>`).and.include(`<iframe sandbox src="/v2/console/outbox/${kept.id}/html"`);
    const frame = await pages.browser.get(`/v2/console/outbox/${kept.id}/html`);
    expect(frame.status).to.equal(200);
    expect(await frame.text()).to.equal(kept.html_body);
    for (const path of [`/v2/console/outbox/${theirs.id}`, `/v2/console/outbox/${theirs.id}/html`]) {
      expect((await pages.browser.get(path)).status, path).to.equal(404);
    }
  });

  it('the console API lists the live account’s kept emails too (no 422 sandbox_only under the sink)', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    const recipient = address('live-api');
    const kept = await keptEmail(stack, account, recipient, 'live');
    expect((expectSuccess(await client.call('GET', '/outbox')) as Array<{ to: string }>).map((m) => m.to)).to.deep.equal([recipient]);
    expect((expectSuccess(await client.call('GET', `/outbox/${kept.id}`)) as { html: string }).html).to.equal(kept.html_body);
  });
});
