import { expect } from 'chai';
import Handlebars from 'handlebars';
import { type TestAccount } from '../helpers/api.ts';

import { hidden, ownerOnPages, pageClient, sandboxEmail, type signedInPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Pages = Awaited<ReturnType<typeof signedInPages>>;

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;

describe('console pages: the sandbox outbox', function () {
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

  it('in live mode says to switch; in sandbox mode lists the sandbox’s emails and shows one in a sandboxed iframe', async () => {
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
    const liveOne = await (await browser.get(`/v2/console/outbox/${first.id}`)).text();
    expect(liveOne).to.include('Switch to the sandbox').and.not.include('<iframe');

    await switchMode(pages, 'sandbox');
    const list = await browser.get('/v2/console/outbox');
    const html = await list.text();
    expect(list.status).to.equal(200);
    expect(html).to.include('Sandbox: nothing here reaches real people').and.include('Emails (3)').and.include('Hi &lt;b&gt;there&lt;/b&gt;');
    const links = [...html.matchAll(/href="\/v2\/console\/outbox\/(\d+)"/g)].map((m) => Number(m[1]));
    expect(links).to.deep.equal([hostile.id, second.id, first.id]);
    expect(html).to.include(`<td>${second.recipient}</td>`);

    const one = await browser.get(`/v2/console/outbox/${first.id}`);
    const message = await one.text();
    expect(one.status).to.equal(200);
    expect(first.html_body).to.be.a('string').and.include('\n');
    // Every character as it was (newlines too), escaped.
    expect(message).to.include(`<iframe sandbox srcdoc="${Handlebars.escapeExpression(first.html_body!)}" title="Email preview"`);
    expect(message).to.include(`<dd>${first.recipient}</dd>`).and.include(Handlebars.escapeExpression(first.text_body));

    const shown = await (await browser.get(`/v2/console/outbox/${hostile.id}`)).text();
    expect(shown).to.include('<iframe sandbox srcdoc="&lt;p onclick&#x3D;&quot;x()&quot;&gt;Hi&lt;/p&gt;&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;&quot;&amp;"');
    expect(shown).to.include('<pre class="email-text">plain &lt;text&gt;</pre>').and.not.include('allow-scripts').and.not.include('<script>');

    await switchMode(pages, 'live');
    expect(await (await browser.get('/v2/console/outbox')).text()).to.include('Switch to the sandbox').and.not.include(first.recipient);
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
    expect(await (await pages.browser.get('/v2/console/outbox')).text()).to.include('Emails (0)').and.include('No sandbox emails yet').and.not.include(theirs.recipient);
    // B still reads its own.
    await switchMode(other, 'sandbox');
    expect(await (await other.browser.get(`/v2/console/outbox/${theirs.id}`)).text()).to.include(`<dd>${theirs.recipient}</dd>`);

    const anonymous = pageClient(stack.url);
    const res = await anonymous.get(`/v2/console/outbox/${theirs.id}`);
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/v2/console/sign-in?next=${encodeURIComponent(`/v2/console/outbox/${theirs.id}`)}`);
  });
});
