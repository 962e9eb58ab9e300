import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { apiClient, call, expectFailure, expectSuccess, type TestAccount } from '../helpers/api.ts';
import { expectAccessible, newPage, screenshot } from '../helpers/browser.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver } from '../helpers/receiver.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { hookPath } from '../helpers/webhooks.ts';

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;
const linkIn = (text: string) => /https?:\/\/[^\s"<>]+\/e\/([0-9A-Za-z]+)/.exec(text)?.[1];

describe('recipients\' own pages: private cards, and opened only when a person opens them', function () {
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
    await made.ecard.update({ header: 'Happy day', details: '<p>Dear {{recipient_name}} ({{recipient_email}})</p>' });
    ecardId = made.ecard.id;
  });
  const send = (body: Record<string, unknown>) => call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body });
  const base = () => ({ ecardId, senderEmail: 'sam@example.com', senderName: 'Sam Sender' });
  const openAction = (pageId: string) => fetch(`${stack.url}/e/${pageId}/open`, { method: 'POST', redirect: 'manual' });

  async function sendToTwo() {
    const [alice, bob] = [address('alice'), address('bob')];
    const res = await send({ ...base(), recipientName: ['Alice Able', 'Bob Baker'], recipientEmail: [alice, bob] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const row = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
    const pages = [linkIn(smtp.to(alice)[0]!.text ?? '')!, linkIn(smtp.to(bob)[0]!.text ?? '')!];
    return { row, alice, bob, pages };
  }

  it('two recipients\' emails carry different links, and each page shows only its own recipient', async () => {
    const { row, alice, bob, pages } = await sendToTwo();
    expect(pages[0]).to.match(/^[0-9A-Za-z]{24}$/);
    expect(pages[1]).to.match(/^[0-9A-Za-z]{24}$/);
    expect(pages[0]).to.not.equal(pages[1]);
    expect(pages).to.not.include(row.stat_vanity_id);
    expect(smtp.to(alice)[0]!.html).to.include(`/e/${pages[0]}`);
    const [alicePage, bobPage] = await Promise.all(pages.map(async (id) => (await fetch(`${stack.url}/e/${id}`)).text()));
    expect(alicePage).to.include(`Dear Alice Able (${alice})`).and.not.include('Bob Baker').and.not.include(bob);
    expect(bobPage).to.include(`Dear Bob Baker (${bob})`).and.not.include('Alice Able').and.not.include(alice);
  });

  it('each element of ecard_shared names its recipient\'s own page as vanity_id', async () => {
    const receiver = await testReceiver();
    const path = hookPath('pages');
    expectSuccess(await call(stack.url, 'POST', '/v2/api/webhook/ecard-shared-url', { key: account.liveKey, body: { url: `${receiver.url}${path}` } }));
    const { pages } = await sendToTwo();
    const [request] = await eventually(async () => receiver.at(path), (r) => r.length === 1, 10_000);
    const elements = JSON.parse(request!.body) as Array<{ vanity_id: string; recipient_name: string }>;
    expect(elements.map((e) => [e.recipient_name, e.vanity_id])).to.deep.equal([['Alice Able', pages[0]], ['Bob Baker', pages[1]]]);
  });

  it('the shared id of a send made before recipients had pages renders the card without any recipient\'s name or address', async () => {
    const { row, alice, bob } = await sendToTwo();
    // What a send accepted before the migration looks like: no page ids, its one shared id in both emails.
    await stack.models.SendRecipient.update({ page_id: null }, { where: { send_id: row.id } });
    const res = await fetch(`${stack.url}/e/${row.stat_vanity_id}`);
    expect(res.status).to.equal(200);
    const html = await res.text();
    expect(html).to.include('Happy day').and.include('Dear  ()');
    for (const leak of ['Alice Able', 'Bob Baker', alice, bob]) expect(html).to.not.include(leak);
    // Nobody in particular opened it: the open action marks nothing.
    expect((await openAction(row.stat_vanity_id)).status).to.equal(303);
    expect((await row.reload()).opened_at).to.equal(null);
  });

  it('the shared id of an old send whose stored design breaks today\'s template rules shows an empty card, not an error', async () => {
    const { row } = await sendToTwo();
    await stack.models.SendRecipient.update({ page_id: null }, { where: { send_id: row.id } });
    const ref = (await stack.models.SendDesignRef.findByPk(row.id))!;
    const stored = (await stack.models.SendDesign.findByPk(ref.design_id))!;
    await stored.update({ design: JSON.stringify({ ...JSON.parse(stored.design), details: '<p>{{log "stored secret"}}</p>' }) });
    const res = await fetch(`${stack.url}/e/${row.stat_vanity_id}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(await res.text()).to.not.include('stored secret');
  });

  it('a scheduled send accepted before recipients had pages gives each recipient a page of their own when it goes out', async () => {
    const [alice, bob] = [address('alice'), address('bob')];
    const res = await send({ ...base(), recipientName: ['Alice Able', 'Bob Baker'], recipientEmail: [alice, bob], sendAt: new Date(Date.now() + 3000).toISOString() });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const row = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
    await stack.models.SendRecipient.update({ page_id: null }, { where: { send_id: row.id } });
    await eventually(async () => [smtp.to(alice).length, smtp.to(bob).length], (n) => n[0] === 1 && n[1] === 1, 15_000);
    const pages = [linkIn(smtp.to(alice)[0]!.text ?? '')!, linkIn(smtp.to(bob)[0]!.text ?? '')!];
    expect(pages[0]).to.not.equal(pages[1]);
    expect(pages).to.not.include(row.stat_vanity_id);
    expect(await (await fetch(`${stack.url}/e/${pages[1]}`)).text()).to.include('Dear Bob Baker').and.not.include('Alice Able');
  });

  it('a GET marks nothing opened; the open action marks that recipient and the send once, and later views show the card open', async () => {
    const { row, pages } = await sendToTwo();
    const recipients = () => stack.models.SendRecipient.findAll({ where: { send_id: row.id }, order: [['position', 'ASC']] });
    const sealed = await (await fetch(`${stack.url}/e/${pages[1]}`)).text();
    expect(sealed).to.include('class="envelope sealed"').and.include(`action="/e/${pages[1]}/open"`);
    expect((await recipients()).map((r) => r.opened_at)).to.deep.equal([null, null]);
    expect((await row.reload()).opened_at).to.equal(null);

    const open = await openAction(pages[1]!);
    expect(open.status).to.equal(303);
    expect(open.headers.get('location')).to.equal(`/e/${pages[1]}`);
    const [first, second] = await recipients();
    expect(first!.opened_at).to.equal(null);
    expect(second!.opened_at).to.be.instanceOf(Date);
    const sendOpened = (await row.reload()).opened_at!;
    expect(sendOpened.getTime()).to.equal(second!.opened_at!.getTime());

    await openAction(pages[1]!);
    await openAction(pages[0]!);
    const [firstAgain, secondAgain] = await recipients();
    expect(secondAgain!.opened_at!.getTime()).to.equal(second!.opened_at!.getTime());
    expect(firstAgain!.opened_at).to.be.instanceOf(Date);
    // sends.opened_at stays "the first recipient opened".
    expect((await row.reload()).opened_at!.getTime()).to.equal(sendOpened.getTime());
    const later = await (await fetch(`${stack.url}/e/${pages[1]}`)).text();
    expect(later).to.include('class="envelope"').and.not.include('class="envelope sealed"');
    expect((await openAction('NoSuchPageIdAtAll123456')).status).to.equal(404);
  });

  it('the page\'s CSP lets it post the open action to this service and nowhere else', async () => {
    const { pages } = await sendToTwo();
    const csp = (await fetch(`${stack.url}/e/${pages[0]}`)).headers.get('content-security-policy')!;
    expect(csp).to.include("form-action 'self'").and.include("connect-src 'self'").and.include("default-src 'none'");
  });

  it('a share link of an eCard with an empty body still has a page', async () => {
    await stack.models.Ecard.update({ header: null, details: '' }, { where: { id: ecardId } });
    const res = await send({ ...base(), recipientName: 'Friend', type: 'ecard_copy_link' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((await fetch(res.body.shareUrl as string)).status).to.equal(200);
  });

  describe('URLs written into the page\'s styles', () => {
    const cssBreaker = 'https://a.test/x\n}body{display:none}';

    it('a URL with whitespace or control characters is refused in overrideProps at send, at eCard save and bulkUpdate, and in a preview', async () => {
      const before = await stack.models.Send.count({ where: { account_id: account.accountId } });
      for (const value of [cssBreaker, 'https://a.test/x y', 'https://a.test/x\u0007']) {
        const res = await send({ ...base(), recipientName: 'Friend', type: 'ecard_copy_link', overrideProps: { envelope_bg_image_url: value } });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body).to.deep.include({ success: false, reason: 'invalid_parameter' });
      }
      expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(before);
      const { api } = apiClient(() => stack, () => account.liveKey);
      expectFailure(await api('POST', '/ecard/save', { myEcard: { id: ecardId, envelope_bg_image_url: cssBreaker } }), 400, 'invalid_parameter');
      expectFailure(await api('POST', '/ecard/bulkUpdate', { ecardids: [ecardId], fieldName: 'envelope_video_url', fieldValue: cssBreaker }), 400, 'invalid_parameter');
      expectFailure(await api('POST', '/ecard/preview', { id: ecardId, overrideProps: { envelope_bg_image_url: cssBreaker } }), 400, 'invalid_parameter');
      expect((await stack.models.Ecard.findByPk(ecardId))!.envelope_bg_image_url).to.equal(null);
    });

    it('a quoted but valid URL is CSS-escaped where the page writes it into a style', async () => {
      const res = await send({ ...base(), recipientName: 'Friend', type: 'ecard_copy_link', overrideProps: { envelope_bg_image_url: 'https://a.test/x");}body{display:none}/*' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const html = await (await fetch(res.body.shareUrl as string)).text();
      const style = /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)![1]!;
      expect(style).to.include('url("https://a.test/x\\22 \\29 ;\\7d body\\7b display:none\\7d /\\2a ")');
      expect(style).to.not.include('}body{');
    });

    it('a URL with a newline saved before this check (in the database) is not written into the page', async () => {
      await stack.models.Ecard.update({ envelope_bg_image_url: cssBreaker }, { where: { id: ecardId } });
      const res = await send({ ...base(), recipientName: 'Friend', type: 'ecard_copy_link' });
      const html = await (await fetch(res.body.shareUrl as string)).text();
      expect(html).to.not.include('display:none').and.not.include('a.test');
    });
  });

  describe('in Chromium', function () {
    before(function () {
      // Browser flows run once, on SQLite (the MariaDB run checks the same pages over HTTP above).
      if (mysqlUrl) this.skip();
    });

    it('the open button sends the open action and shows the card, usable by keyboard alone', async () => {
      const { row, pages } = await sendToTwo();
      const { page } = await newPage();
      await page.goto(`${stack.url}/e/${pages[0]}`);
      await screenshot(page, 'card-page-sealed');
      await expectAccessible(page);
      expect((await row.reload()).opened_at).to.equal(null);
      await page.keyboard.press('Tab');
      const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/e/${pages[0]}/open`));
      await page.keyboard.press('Enter');
      await posted;
      await page.getByRole('heading', { name: 'Happy day' }).waitFor({ state: 'visible' });
      await eventually(async () => (await row.reload()).opened_at, (at) => at !== null);
      await screenshot(page, 'card-page-open');
      await expectAccessible(page);
    });

    it('classic mode shows the card at once and sends the open action after it has been seen for 2 s', async () => {
      await stack.models.Ecard.update({ ecard_mode: 'classic' }, { where: { id: ecardId } });
      const { row, pages } = await sendToTwo();
      const { page } = await newPage();
      const started = Date.now();
      const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/e/${pages[0]}/open`), { timeout: 10_000 });
      await page.goto(`${stack.url}/e/${pages[0]}`);
      await page.getByRole('heading', { name: 'Happy day' }).waitFor({ state: 'visible' });
      expect((await row.reload()).opened_at).to.equal(null);
      await posted;
      expect(Date.now() - started).to.be.at.least(2000);
      await eventually(async () => (await row.reload()).opened_at, (at) => at !== null);
    });
  });
});
