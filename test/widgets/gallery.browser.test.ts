// The widget's hosted pages in Chromium: the three layouts, the dark theme, the form opened in place, keyboard-only
// use, axe-core, a 375 px screen, Arabic right to left; screenshots in test-artifacts/widget-*.png.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { SHARE_MODES } from '../../services/widgets/public/page.ts';
import { MIN_FILL_MS } from '../../services/widgets/public/send.ts';
import { newAccount } from '../helpers/api.ts';
import { expectAccessible, newPage, screenshot, fitsWidth } from '../helpers/browser.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { eventually } from '../helpers/eventually.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// Artwork of different shapes and colours, from the test's own server (what a masonry layout is for).
const ART: Record<string, [number, number, string, string, string]> = {
  a: [1200, 800, '#f6d365', '#fda085', 'Happy birthday'],
  b: [800, 1100, '#a1c4fd', '#c2e9fb', 'Thank you'],
  c: [1200, 900, '#d4fc79', '#96e6a1', 'Congrats!'],
  d: [900, 900, '#fbc2eb', '#a6c1ee', 'Welcome'],
  e: [1200, 700, '#ffecd2', '#fcb69f', 'Cheers'],
  f: [800, 1000, '#84fab0', '#8fd3f4', 'Get well'],
};
const svg = ([w, h, from, to, text]: [number, number, string, string, string]) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#g)"/><circle cx="${w * 0.25}" cy="${h * 0.35}" r="${w * 0.12}" fill="#fff" opacity=".35"/><text x="${w / 2}" y="${h / 2}" font-family="Georgia, serif" font-size="${w / 10}" text-anchor="middle" fill="#3b2a4a">${text}</text></svg>`;

async function artServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const art = ART[(req.url ?? '').replace(/^\/|\.svg$/g, '')];
    if (!art) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg(art));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const NAMES = ['Happy birthday', 'Thank you', 'Congratulations', 'Welcome aboard', 'Cheers to you', 'Get well soon'];

async function widgetWithArt(stack: TestStack, accountId: number, art: string, wconfig: Record<string, unknown>, fields: Record<string, unknown> = {}) {
  const made = await insertPublicWidget(stack.models, accountId, { ecards: 6, wconfig, fields: { name: 'Acme Greetings', ...fields } });
  const keys = Object.keys(ART);
  for (const [i, ecard] of made.ecards.entries()) await ecard.update({ name: NAMES[i]!, self_hosted_url: `${art}/${keys[i]}.svg` });
  return made;
}

async function loaded(page: Page, url: string) {
  await page.goto(url);
  await page.waitForFunction('[...document.images].every((img) => img.complete)');
}

const focusedCard = (page: Page) => page.evaluate<string | null>("document.activeElement && document.activeElement.getAttribute('data-ecard')");
/** Records the page's `cardsvc-widget` events (what the bridge relays to the host page) in `window.seen`. */
const watchEvents = (page: Page) => page.addInitScript("window.seen = []; document.addEventListener('cardsvc-widget', (event) => window.seen.push(event.detail));");
const eventsOf = (page: Page) => page.evaluate<{ type: string; data: Record<string, unknown> }[]>('window.seen');

describe('the widget gallery and form in Chromium', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let accountId: number;
  let art: string;

  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    accountId = (await newAccount(stack.models)).accountId;
    art = (await artServer()).url;
  });

  it('shows the grid, opens a card\'s form in place from the keyboard alone, and tells the host page', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, { layout: 'grid', thumbColumns: 3, widgetThemeColor: '#0f7b6c' });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await watchEvents(page);
    await loaded(page, `${stack.url}/w/${widget.vanity_id}`);
    expect(await page.locator('a[data-ecard]').count()).to.equal(6);
    await screenshot(page, 'widget-grid');
    await expectAccessible(page);
    // Keyboard only: the first Tab reaches the first card; Enter opens its form in place.
    await page.keyboard.press('Tab');
    expect(await focusedCard(page)).to.equal(ecards[0]!.vanity_id);
    await page.keyboard.press('Enter');
    await page.locator('#panel form').waitFor();
    expect(await page.locator('#gallery').isHidden()).to.equal(true);
    expect(await page.locator('#panel [data-slot="name"]').textContent()).to.equal('Happy birthday');
    expect(page.url()).to.equal(`${stack.url}/w/${widget.vanity_id}`);
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      names.push(await page.evaluate<string>("document.activeElement.name || document.activeElement.textContent"));
    }
    expect(names).to.include.members(['recipients[0][name]', 'recipients[0][email]', 'sender_name', 'sender_email']);
    // "Add a recipient" adds a numbered row; its remove button takes it away again.
    await page.locator('[data-add]').click();
    expect(await page.locator('input[name="recipients[1][email]"]').count()).to.equal(1);
    await page.fill('input[name="recipients[0][name]"]', 'Ada Lovelace');
    await page.fill('input[name="recipients[0][email]"]', 'ada@example.com');
    await page.fill('input[name="recipients[1][name]"]', 'Grace Hopper');
    await page.fill('input[name="recipients[1][email]"]', 'grace@example.com');
    await page.fill('input[name="sender_name"]', 'Charles Babbage');
    await page.fill('input[name="sender_email"]', 'charles@example.com');
    await page.fill('textarea[name="personalMessage"]', 'Happy birthday! Wishing you a wonderful year ahead.');
    await page.locator('[data-pick]').click();
    expect(await page.locator('[data-pick-input]').isVisible()).to.equal(true);
    await screenshot(page, 'widget-form-in-place');
    await expectAccessible(page);
    const seen = await eventsOf(page);
    expect(seen.map((e) => e.type)).to.deep.equal(['loaded', 'open-form']);
    expect(seen[1]!.data).to.deep.equal({ vanity_id: widget.vanity_id, ecard: { ecardid: ecards[0]!.id, vanity_id: ecards[0]!.vanity_id, name: 'Happy birthday', thumb_image: `${art}/a.svg` } });
    // Back to the gallery, with the chosen card focused.
    await page.locator('[data-back]').click();
    expect(await focusedCard(page)).to.equal(ecards[0]!.vanity_id);
  });

  it('lays out masonry in the dark theme, readable and accessible', async () => {
    const { widget } = await widgetWithArt(stack, accountId, art, { layout: 'masonry', theme: 'dark', thumbColumns: 3, widgetThemeColor: '#ffb020' });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await loaded(page, `${stack.url}/w/${widget.vanity_id}`);
    expect(await page.locator('html').getAttribute('data-theme')).to.equal('dark');
    const heights = await page.evaluate<number[]>("[...document.querySelectorAll('.card img')].map((img) => Math.round(img.getBoundingClientRect().height))");
    expect(new Set(heights).size).to.be.greaterThan(1);
    await screenshot(page, 'widget-masonry-dark');
    await expectAccessible(page);
  });

  it('lays out a scrolling row (inline), and fits a 375 px screen without sideways scrolling', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, { layout: 'inline', thumbHeight: 160 });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 700 });
    await loaded(page, `${stack.url}/w/${widget.vanity_id}`);
    await screenshot(page, 'widget-inline');
    await expectAccessible(page);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await fitsWidth(page)).to.equal(true);
    await screenshot(page, 'widget-inline-375');
    await loaded(page, `${stack.url}/w/${widget.vanity_id}/e/${ecards[1]!.vanity_id}`);
    expect(await fitsWidth(page)).to.equal(true);
    await screenshot(page, 'widget-form-375');
  });

  it('fits the grid and the form page on 375 px, with paging', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, { layout: 'grid', thumbColumns: 4, ecardsPerPage: 4, readReceiptEnabled: true });
    const { page } = await newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    await loaded(page, `${stack.url}/w/${widget.vanity_id}`);
    expect(await fitsWidth(page)).to.equal(true);
    expect(await page.locator('a[rel="next"]').count()).to.equal(1);
    await screenshot(page, 'widget-grid-375');
    await page.locator('a[rel="next"]').click();
    await page.waitForURL(/page=2/);
    expect(await page.locator('a[data-ecard]').count()).to.equal(2);
    await loaded(page, `${stack.url}/w/${widget.vanity_id}/e/${ecards[0]!.vanity_id}?error=limitReached`);
    expect(await page.locator('[role="alert"]').textContent()).to.equal('Too many eCards were sent from here for now. Please try again later.');
    expect(await fitsWidth(page)).to.equal(true);
    await expectAccessible(page);
  });

  it('shows the form page of a widget that asks senders to prove their address', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, { widgetThemeColor: '#c2185b' }, { email_verification_required: true, stylebghead: '#1f2a44', styleheadtext: '#ffffff' });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 1000 });
    await loaded(page, `${stack.url}/w/${widget.vanity_id}/e/${ecards[2]!.vanity_id}`);
    expect(await page.locator('[data-verify]').isVisible()).to.equal(true);
    expect(await page.locator('[data-verify-start]').isVisible()).to.equal(true);
    await screenshot(page, 'widget-form-verify');
    await expectAccessible(page);
  });

  it('reads Arabic right to left', async () => {
    const { widget } = await widgetWithArt(stack, accountId, art, { locale: 'ar', thumbColumns: 3 });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await loaded(page, `${stack.url}/w/${widget.vanity_id}`);
    expect(await page.locator('html').getAttribute('dir')).to.equal('rtl');
    expect(await page.locator('#choose').textContent()).to.equal('اختر بطاقة');
    const [first, second] = await page.evaluate<number[]>("[...document.querySelectorAll('.card')].slice(0, 2).map((c) => c.getBoundingClientRect().left)");
    expect(first).to.be.greaterThan(second!);
    await screenshot(page, 'widget-ar');
    await expectAccessible(page);
  });

  it('thanks, with the share link and buttons', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, {});
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const link = `${stack.config.publicBaseUrl}/e/example123`;
    await loaded(page, `${stack.url}/w/${widget.vanity_id}/sent?ecard=${ecards[0]!.vanity_id}&mode=linkedin&share=${encodeURIComponent(link)}`);
    expect(await page.locator('[data-network]').getAttribute('href')).to.equal(`https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(link)}`);
    await screenshot(page, 'widget-sent-share');
    await expectAccessible(page);
  });
});

// The page's script against the REAL send and verification endpoints: the real database, the workflow, and the
// test SMTP server (the stack's SMTP_URL) where the emails arrive. Nothing the page asks for is answered by the test.
//
// The "too fast" trap: a send less than MIN_FILL_MS (3 s) after its form token was issued is answered like a success
// and sends nothing (test/widgets/send.test.ts). The page's script holds a quicker send until the token is old enough,
// and one test checks that a person that quick is sent; the others wait until 3 s after the form opened (`humanPace`)
// before they click, as a person mostly does.
describe('the widget page\'s script, sending for real', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let accountId: number;
  let art: string;
  let smtp: SmtpTestServer;
  let counter = 0;
  const address = (name: string, domain = 'example.com') => `${name}-${process.pid}-${Date.now()}-${++counter}@${domain}`;
  const mailsTo = (email: string, count = 1) => eventually(async () => smtp.to(email), (m) => m.length >= count, 20_000, 100);
  const sendsOf = (widgetId: number) => stack.models.Send.findAll({ where: { widget_id: widgetId }, order: [['id', 'ASC']] });
  /** Waits until the form token issued at `openedAt` is older than the trap's 3 s (MIN_FILL_MS), with a margin. */
  const humanPace = (openedAt: number) => sleep(Math.max(0, openedAt + MIN_FILL_MS + 300 - Date.now()));
  const sendRequest = (page: Page, vanity: string) => page.waitForRequest((req) => req.method() === 'POST' && req.url() === `${stack.url}/v2/widget/${vanity}/send`);

  async function fillEmailForm(page: Page, values: { recipients: { name: string; email: string }[]; sender: { name: string; email: string }; message?: string }) {
    for (const [i, r] of values.recipients.entries()) {
      if (i > 0) await page.locator('[data-add]').click();
      await page.fill(`input[name="recipients[${i}][name]"]`, r.name);
      await page.fill(`input[name="recipients[${i}][email]"]`, r.email);
    }
    await page.fill('input[name="sender_name"]', values.sender.name);
    await page.fill('input[name="sender_email"]', values.sender.email);
    if (values.message !== undefined) await page.fill('textarea[name="personalMessage"]', values.message);
  }

  /** Opens the form page of one card; returns when its token was issued (at the latest). */
  async function openFormPage(page: Page, vanity: string, ecardVanity: string): Promise<number> {
    await loaded(page, `${stack.url}/w/${vanity}/e/${ecardVanity}`);
    return Date.now();
  }

  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    smtp = await testSmtpServer();
    accountId = (await newAccount(stack.models)).accountId;
    art = (await artServer()).url;
  });

  it('sends from the gallery to two recipients (the contract\'s JSON, the event, both emails), then "Send another" makes a second, scheduled send', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, { readReceiptEnabled: true });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await watchEvents(page);
    await loaded(page, `${stack.url}/w/${widget.vanity_id}`);
    // Choosing a card asks for a fresh token (a form open); the send carries that one.
    const opened = page.waitForResponse((res) => res.url().includes('?ecard='));
    await page.locator(`a[data-ecard="${ecards[1]!.vanity_id}"]`).click();
    const openedToken = ((await (await opened).json()) as { data: { form_token: string } }).data.form_token;
    const openedAt = Date.now();
    await page.locator('#panel form').waitFor();
    const [ada, grace, charles] = [address('ada'), address('grace'), address('charles')];
    await fillEmailForm(page, { recipients: [{ name: 'Ada Lovelace', email: ada }, { name: 'Grace Hopper', email: grace }], sender: { name: 'Charles', email: charles }, message: 'Thanks for everything' });
    await page.locator('input[name="getReadReceipt"]').check();
    await humanPace(openedAt);
    const posted = sendRequest(page, widget.vanity_id);
    await page.locator('[data-main]').click();
    const body = (await posted).postDataJSON() as Record<string, unknown>;
    await page.locator('[data-sent-panel]').waitFor();
    expect(Object.keys(body).sort()).to.deep.equal(['ecard', 'fax_number', 'form_token', 'getReadReceipt', 'optedIn', 'personalMessage', 'recipients', 'sender', 'share_mode']);
    expect(body).to.deep.include({ ecard: ecards[1]!.vanity_id, share_mode: 'email', fax_number: '', getReadReceipt: true, optedIn: false, personalMessage: 'Thanks for everything', sender: { name: 'Charles', email: charles }, recipients: [{ name: 'Ada Lovelace', email: ada }, { name: 'Grace Hopper', email: grace }] });
    expect(body.form_token).to.equal(openedToken);
    expect(await page.locator('[data-slot="sent-title"]').textContent()).to.equal('Your eCard is on its way!');
    await screenshot(page, 'widget-sent-in-place');
    await expectAccessible(page);
    const seen = await eventsOf(page);
    expect(seen.map((e) => e.type)).to.deep.equal(['loaded', 'open-form', 'share-success']);
    expect(seen[2]!.data).to.deep.equal({
      vanity_id: widget.vanity_id,
      share_mode: 'email',
      form_data: { recipients: [{ name: 'Ada Lovelace', email: ada }, { name: 'Grace Hopper', email: grace }], sender: { name: 'Charles', email: charles }, personalMessage: 'Thanks for everything', getReadReceipt: true, optedIn: false, setSchedule: null },
      ecard: { ecardid: ecards[1]!.id, vanity_id: ecards[1]!.vanity_id, name: 'Thank you', thumb_image: `${art}/b.svg` },
    });
    // Both recipients get the card, each email with its one-click unsubscribe.
    for (const to of [ada, grace]) {
      const [mail] = await mailsTo(to);
      expect(mail!.headers['list-unsubscribe']).to.match(/^<http:\/\/127\.0\.0\.1:\d+\/u\/[0-9A-Za-z]{24}>$/);
      expect(mail!.headers['list-unsubscribe-post']).to.equal('List-Unsubscribe=One-Click');
    }
    const [first] = await sendsOf(widget.id);
    expect(first).to.deep.include({ origin: 'widget', share_type: 'email', mode: 'email', sender_email: charles, sender_name: 'Charles', notify_on_open: true, ecard_id: ecards[1]!.id });
    // "Send another": the gallery again, in place, the card just sent focused; choosing it opens a new form.
    await page.locator('[data-another]').click();
    expect(await page.locator('#gallery').isVisible()).to.equal(true);
    expect(await focusedCard(page)).to.equal(ecards[1]!.vanity_id);
    const reopened = page.waitForResponse((res) => res.url().includes('?ecard='));
    await page.locator(`a[data-ecard="${ecards[1]!.vanity_id}"]`).click();
    await reopened;
    const reopenedAt = Date.now();
    await page.locator('#panel form').waitFor();
    const linus = address('linus');
    await fillEmailForm(page, { recipients: [{ name: 'Linus', email: linus }], sender: { name: 'Charles', email: charles }, message: 'See you tomorrow' });
    await page.locator('input[data-preset="tomorrow"]').check({ force: true });
    await humanPace(reopenedAt);
    const posted2 = sendRequest(page, widget.vanity_id);
    await page.locator('[data-main]').click();
    const body2 = (await posted2).postDataJSON() as Record<string, unknown>;
    await page.locator('[data-sent-panel]').waitFor();
    expect(body2.form_token).to.not.equal(body.form_token);
    // Tomorrow at 9:00 in the visitor's time, and a second send (not the first one's idempotent repeat).
    expect(await page.evaluate<number>(`new Date(${JSON.stringify(body2.sendAt)}).getHours()`)).to.equal(9);
    const rows = await sendsOf(widget.id);
    expect(rows).to.have.length(2);
    expect(rows[1]!.send_id).to.not.equal(rows[0]!.send_id);
    expect(rows[1]).to.deep.include({ mode: 'schedule', origin: 'widget', share_type: 'email', personal_message: 'See you tomorrow' });
    expect(rows[1]!.send_at.getTime()).to.equal(new Date(String(body2.sendAt)).getTime());
    expect(smtp.to(linus)).to.deep.equal([]);
  });

  it('a person who fills and sends at once (under 3 s after the form opened): the script holds the send until the form is 3 s old ("Sending…"), and the email arrives', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, {});
    const { page } = await newPage();
    await loaded(page, `${stack.url}/w/${widget.vanity_id}`);
    // Choosing a card opens its form in place with a fresh token: from here on is the visitor's pace.
    const started = Date.now();
    await page.locator(`a[data-ecard="${ecards[0]!.vanity_id}"]`).click();
    await page.locator('#panel form').waitFor();
    const rita = address('rita');
    const posted = sendRequest(page, widget.vanity_id);
    // Filled and sent in one turn of the page's script (as autofill does), so the visitor is inside the trap's 3 s
    // even on a loaded machine, where five separate fills took longer than that. Then the button as the visitor
    // sees it right after the click: held, and saying so ("Sending…", no second click).
    const values = { 'recipients[0][name]': 'Rita', 'recipients[0][email]': rita, sender_name: 'Sam', sender_email: address('sam'), personalMessage: 'Quick!' };
    const button = await page.evaluate<[string | null, boolean]>(`(() => {
      for (const [name, value] of Object.entries(${JSON.stringify(values)})) {
        const field = document.querySelector('[name="' + name + '"]');
        field.value = value;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
      const b = document.querySelector('[data-main]');
      b.click();
      return [b.textContent, b.disabled];
    })()`);
    const clickedAt = Date.now();
    // The premise: a person's pace, inside the trap's 3 s (the token was issued after `started`).
    expect(clickedAt - started).to.be.lessThan(MIN_FILL_MS);
    expect(button).to.deep.equal(['Sending…', true]);
    await posted;
    // The request leaves once the token is 3 s old: the server's clock can only count more.
    expect(Date.now() - started).to.be.at.least(MIN_FILL_MS);
    await page.locator('[data-sent-panel]').waitFor();
    expect(await page.locator('[data-slot="sent-title"]').textContent()).to.equal('Your eCard is on its way!');
    const [mail] = await mailsTo(rita);
    expect(mail!.subject).to.be.a('string');
    expect(await sendsOf(widget.id)).to.have.length(1);
    expect(await stack.models.WidgetAbuseEvent.findAll({ where: { widget_id: widget.id } })).to.deep.equal([]);
  });

  it('shows a real refusal localized (a recipient outside the widget\'s domains), accessible; corrected, the send goes', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, { locale: 'es' }, { recipient_email_domains_whitelist: 'example.org' });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const openedAt = await openFormPage(page, widget.vanity_id, ecards[0]!.vanity_id);
    await fillEmailForm(page, { recipients: [{ name: 'Rita', email: address('rita', 'example.com') }], sender: { name: 'Sam', email: address('sam') }, message: 'Hola' });
    await humanPace(openedAt);
    await page.locator('[data-main]').click();
    await page.locator('[data-slot="error"]:not([hidden])').waitFor();
    expect(await page.locator('[data-slot="error"]').textContent()).to.equal('Revisa las direcciones de correo de los destinatarios.');
    expect(await page.locator('[data-slot="error"]').getAttribute('role')).to.equal('alert');
    await screenshot(page, 'widget-refusal-es');
    await expectAccessible(page);
    expect(await sendsOf(widget.id)).to.deep.equal([]);
    const rita = address('rita', 'example.org');
    await page.fill('input[name="recipients[0][email]"]', rita);
    await page.locator('[data-main]').click();
    await page.locator('[data-sent-panel]').waitFor();
    expect(await page.locator('[data-slot="sent-title"]').textContent()).to.equal('¡Tu tarjeta está en camino!');
    await mailsTo(rita);
    expect(await sendsOf(widget.id)).to.have.length(1);
  });

  it('goes to the card\'s redirect after a real send (not framed)', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, {});
    await ecards[0]!.update({ url_redirect_after_send: `${art}/a.svg` });
    const { page } = await newPage();
    const openedAt = await openFormPage(page, widget.vanity_id, ecards[0]!.vanity_id);
    const ada = address('ada');
    await fillEmailForm(page, { recipients: [{ name: 'Ada', email: ada }], sender: { name: 'Charles', email: address('charles') }, message: 'Hi' });
    await humanPace(openedAt);
    await page.locator('[data-main]').click();
    await page.waitForURL(`${art}/a.svg`);
    await mailsTo(ada);
    expect((await sendsOf(widget.id)).map((s) => s.origin)).to.deep.equal(['widget']);
  });

  it('proves the sender\'s address with the mailed code (a wrong one first), and the send carries the directory member', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, {}, { email_verification_required: true, dir_sender_must_be_in_directory: true });
    const charles = address('charles');
    const member = await stack.models.TeamMember.create({ account_id: accountId, email: charles });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const openedAt = await openFormPage(page, widget.vanity_id, ecards[0]!.vanity_id);
    const ada = address('ada');
    await fillEmailForm(page, { recipients: [{ name: 'Ada', email: ada }], sender: { name: 'Charles', email: charles.replace('charles', 'Charles') }, message: 'Hi' });
    const requests: string[] = [];
    page.on('request', (req) => { if (req.method() === 'POST') requests.push(new URL(req.url()).pathname.split(`${widget.vanity_id}/`)[1]!); });
    await page.locator('[data-main]').click();
    expect(await page.locator('[data-slot="error"]').textContent()).to.equal('Please confirm your email address first.');
    expect(requests).to.deep.equal([]);
    const started = page.waitForRequest((req) => req.url().endsWith('/verify/start'));
    await page.locator('[data-verify-start]').click();
    expect((await started).postDataJSON()).to.have.keys('form_token', 'email');
    await page.locator('[data-verify-code]').waitFor();
    expect(await page.locator('[data-verify-intro]').textContent()).to.equal(`We sent a code to ${charles.replace('charles', 'Charles')}.`);
    const [mail] = await mailsTo(charles);
    const code = /\b(\d{6})\b/.exec(mail!.subject)![1]!;
    await page.fill('input[name="verify_code"]', String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await page.locator('[data-verify-confirm]').click();
    await page.locator('[data-slot="error"]', { hasText: 'That code is not right. Please try again.' }).waitFor();
    await page.fill('input[name="verify_code"]', code);
    await page.locator('[data-verify-confirm]').click();
    await page.locator('[data-verified]:not([hidden])').waitFor();
    expect(await page.locator('[data-slot="error"]').isHidden()).to.equal(true);
    await screenshot(page, 'widget-verified');
    await humanPace(openedAt);
    const posted = sendRequest(page, widget.vanity_id);
    await page.locator('[data-main]').click();
    expect((await posted).postDataJSON()).to.have.property('widget_session').that.is.a('string').and.not.empty;
    await page.locator('[data-sent-panel]').waitFor();
    expect(requests).to.deep.equal(['verify/start', 'verify/confirm', 'verify/confirm', 'send']);
    await mailsTo(ada);
    const [row] = await sendsOf(widget.id);
    expect(row).to.deep.include({ sender_name: 'Charles', sender_member_id: member.id, origin: 'widget' });
    expect(row!.sender_email.toLowerCase()).to.equal(charles);
  });

  it('sends with the keyboard alone (Tab, Enter, Space) from the gallery on a 375 px screen, without sideways scrolling', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, { layout: 'grid', thumbColumns: 3 });
    const { page } = await newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    await loaded(page, `${stack.url}/w/${widget.vanity_id}`);
    const focused = () => page.evaluate<string>("(function (el) { return !el ? '' : el.hasAttribute('data-main') ? 'data-main' : el.getAttribute('name') || el.getAttribute('data-ecard') || el.textContent || ''; })(document.activeElement)");
    /** Tabs forward until the focused element answers `target` (at most 40 presses). */
    async function tabTo(target: string) {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === target) return;
      }
      throw new Error(`Tab never reached ${target}`);
    }
    await tabTo(ecards[0]!.vanity_id);
    const opened = page.waitForResponse((res) => res.url().includes('?ecard='));
    await page.keyboard.press('Enter');
    await opened;
    const openedAt = Date.now();
    await page.locator('#panel form').waitFor();
    const [ada, charles] = [address('ada'), address('charles')];
    for (const [name, value] of [['recipients[0][name]', 'Ada'], ['recipients[0][email]', ada], ['sender_name', 'Charles'], ['sender_email', charles], ['personalMessage', 'Typed, not clicked']] as const) {
      await tabTo(name);
      await page.keyboard.type(value);
    }
    expect(await fitsWidth(page)).to.equal(true);
    await screenshot(page, 'widget-keyboard-375');
    await tabTo('data-main');
    await humanPace(openedAt);
    await page.keyboard.press('Space');
    await page.locator('[data-sent-panel]').waitFor();
    expect(await fitsWidth(page)).to.equal(true);
    await screenshot(page, 'widget-sent-375');
    const [mail] = await mailsTo(ada);
    expect(mail!.text).to.include('Typed, not clicked');
    expect(await sendsOf(widget.id)).to.have.length(1);
  });

  it('works without JavaScript: the card link, the form page, a refusal shown on the page, the post, the thank-you page, the email', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, {}, { recipient_email_domains_whitelist: 'example.com' });
    const { context: withJs } = await newPage();
    const context = await withJs.browser()!.newContext({ javaScriptEnabled: false });
    onSuiteEnd(() => context.close());
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${stack.url}/w/${widget.vanity_id}`);
    await page.locator(`a[data-ecard="${ecards[2]!.vanity_id}"]`).click();
    await page.waitForURL(`${stack.url}/w/${widget.vanity_id}/e/${ecards[2]!.vanity_id}`);
    const formAt = Date.now();
    const [ada, charles] = [address('ada'), address('charles')];
    // A recipient outside the widget's domains: back to the form page with the refusal's sentence (sent at a person's
    // pace, else the trap would answer it with the thank-you page).
    await fillEmailForm(page, { recipients: [{ name: 'Ada', email: address('ada', 'example.org') }], sender: { name: 'Charles', email: charles }, message: 'No script needed' });
    await humanPace(formAt);
    await page.locator('button[value="email"]').click();
    await page.waitForURL(`${stack.url}/w/${widget.vanity_id}/e/${ecards[2]!.vanity_id}?error=finvalid`);
    expect(await page.locator('[role="alert"]').textContent()).to.equal('Please check the recipients’ email addresses.');
    expect(await sendsOf(widget.id)).to.deep.equal([]);
    // The page came back with a fresh form token: a person's pace again before sending.
    const openedAt = Date.now();
    await fillEmailForm(page, { recipients: [{ name: 'Ada', email: ada }], sender: { name: 'Charles', email: charles }, message: 'No script needed' });
    await humanPace(openedAt);
    await page.locator('button[value="email"]').click();
    await page.waitForURL(new RegExp(`/w/${widget.vanity_id}/sent\\?`));
    expect(new URL(page.url()).searchParams.get('ecard')).to.equal(ecards[2]!.vanity_id);
    expect(new URL(page.url()).searchParams.get('mode')).to.equal('email');
    expect(await page.locator('[data-slot="sent-title"]').textContent()).to.equal('Your eCard is on its way!');
    await screenshot(page, 'widget-sent-nojs');
    const [mail] = await mailsTo(ada);
    expect(mail!.text).to.include('No script needed');
    expect(await sendsOf(widget.id)).to.have.length(1);
  });

  it('sends in Arabic, right to left', async () => {
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, { locale: 'ar' });
    const { page } = await newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const openedAt = await openFormPage(page, widget.vanity_id, ecards[0]!.vanity_id);
    expect(await page.locator('html').getAttribute('dir')).to.equal('rtl');
    // The honeypot once sat 10000 px to the left: room a right-to-left page scrolls into.
    expect(await fitsWidth(page)).to.equal(true);
    const ada = address('ada');
    await fillEmailForm(page, { recipients: [{ name: 'عائشة', email: ada }], sender: { name: 'خالد', email: address('khalid') }, message: 'كل عام وأنتِ بخير' });
    await screenshot(page, 'widget-form-ar');
    await humanPace(openedAt);
    await page.locator('[data-main]').click();
    await page.locator('[data-sent-panel]').waitFor();
    expect(await page.locator('[data-slot="sent-title"]').textContent()).to.equal('بطاقتك في الطريق!');
    await screenshot(page, 'widget-sent-ar');
    await mailsTo(ada);
    expect(await sendsOf(widget.id)).to.have.length(1);
  });

  it('makes a share link for each share mode of the page, with its share type', async function () {
    // Eight sends through the real workflow: more than the file's usual minute on a busy machine.
    this.timeout(120_000);
    const { widget, ecards } = await widgetWithArt(stack, accountId, art, {});
    const { context } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    // One fresh form per mode, all opened first so one wait covers the 3 s of all of them.
    const pages: Page[] = [];
    for (const _mode of SHARE_MODES) pages.push(await context.newPage());
    let openedAt = 0;
    for (const page of pages) openedAt = await openFormPage(page, widget.vanity_id, ecards[0]!.vanity_id);
    await humanPace(openedAt);
    // The card asks for a message (the widget's default): a share without one is stopped on the field, unsent.
    const posts: string[] = [];
    pages[0]!.on('request', (req) => { if (req.method() === 'POST') posts.push(req.url()); });
    await pages[0]!.fill('input[name="sender_name"]', 'Charles');
    await pages[0]!.fill('input[name="sender_email"]', address('charles'));
    await pages[0]!.locator(`button[value="${SHARE_MODES[0]}"]`).click();
    expect(await pages[0]!.evaluate<boolean>("document.activeElement === document.querySelector('textarea[name=personalMessage]')")).to.equal(true);
    expect(posts).to.deep.equal([]);
    const urls: string[] = [];
    for (const [i, mode] of SHARE_MODES.entries()) {
      const page = pages[i]!;
      await page.fill('input[name="sender_name"]', 'Charles');
      await page.fill('input[name="sender_email"]', address('charles'));
      await page.fill('textarea[name="personalMessage"]', `Shared by ${mode}`);
      const posted = sendRequest(page, widget.vanity_id);
      await page.locator(`button[value="${mode}"]`).click();
      expect((await posted).postDataJSON()).to.deep.include({ share_mode: mode, recipients: [] });
      await page.locator('[data-sent-panel]').waitFor();
      expect(await page.locator('[data-slot="sent-title"]').textContent(), mode).to.equal('Your eCard is ready to share');
      const url = await page.locator('[data-share-url]').inputValue();
      expect(url, mode).to.match(new RegExp(`^${stack.config.publicBaseUrl.replace(/[.]/g, '\\.')}/e/[0-9A-Za-z]+$`));
      urls.push(url);
      if (mode === 'facebook') {
        expect(await page.locator('[data-network]').getAttribute('href')).to.equal(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`);
        expect(await page.locator('[data-network]').textContent()).to.equal('Share on Facebook');
        await screenshot(page, 'widget-share-in-place');
      }
      if (mode === 'ecard_copy_link') {
        await page.locator('[data-copy]').click();
        await page.locator('[data-copied]', { hasText: 'Link copied' }).waitFor();
        expect(await page.evaluate<string>('navigator.clipboard.readText()')).to.equal(url);
      }
    }
    const rows = await sendsOf(widget.id);
    expect(rows.map((r) => r.share_type)).to.deep.equal([...SHARE_MODES]);
    expect(rows.every((r) => r.mode === 'share' && r.origin === 'widget')).to.equal(true);
    expect(rows.map((r) => `${stack.config.publicBaseUrl}/e/${r.stat_vanity_id}`)).to.deep.equal(urls);
    // The link is a real card page.
    const status = await eventually(async () => (await fetch(urls[0]!)).status, (s) => s === 200, 20_000, 100);
    expect(status).to.equal(200);
  });
});
