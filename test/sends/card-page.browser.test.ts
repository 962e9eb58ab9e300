import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { contrastRatio } from '../../lib/colors.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { expectAccessible, newPage, screenshot } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// A short tone (16-bit mono PCM), made here: the audio the card plays comes from the test's own server.
function wav(seconds = 1, rate = 8000): Buffer {
  const samples = seconds * rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

// The cover, an SVG from the same server.
const COVER = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675" viewBox="0 0 1200 675">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f6d365"/><stop offset="1" stop-color="#fda085"/></linearGradient></defs>
<rect width="1200" height="675" fill="url(#g)"/><circle cx="300" cy="260" r="120" fill="#fff" opacity=".35"/><circle cx="900" cy="420" r="180" fill="#fff" opacity=".25"/>
<text x="600" y="370" font-family="Georgia, serif" font-size="96" text-anchor="middle" fill="#5b2a1a">Happy day!</text></svg>`;

interface MediaServer {
  url: string;
  server: Server;
}

async function mediaServer(): Promise<MediaServer> {
  const tone = wav();
  const server = createServer((req, res) => {
    if (req.url === '/tone.wav') {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': tone.length, 'accept-ranges': 'none' });
      res.end(tone);
    } else if (req.url === '/cover.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(COVER);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };

describe('the card page in Chromium: the envelope, the card, and what a recipient can do with it', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let media: MediaServer;
  let ecardId: number;
  let widgetId: number;
  let browser: Browser;

  before(async function () {
    // Browser flows run once, on SQLite (the MariaDB run checks the same pages over HTTP in test/sends/).
    if (mysqlUrl) this.skip();
    stack = await testStack();
    media = await mediaServer();
    const made = await accountWithWidget(stack, { plan: 'pro', ecard: { self_hosted_url: `${media.url}/cover.svg` } });
    account = made.account;
    const { widget, ecard } = made;
    await ecard.update({ header: 'Happy day', details: '<p>Dear {{recipient_first_name}}, may your day be as bright as you are. Thank you for everything this year.</p>' });
    ecardId = ecard.id;
    widgetId = widget.id;
    browser = (await newPage()).context.browser()!;
  });

  /** A new context (closed with the suite): strict CSP unless axe-core is to run in it. */
  async function open(options: BrowserContextOptions & { axe?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
    const { axe, ...rest } = options;
    const context = await browser.newContext({ viewport: DESKTOP, bypassCSP: axe === true, ...rest });
    onSuiteEnd(() => context.close());
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
    });
    return { context, page, violations };
  }

  /**
   * A share-link send (a recipient's page with the open action); `design` fields are saved on a new eCard of the
   * widget through the key API first, so they reach the page as a customer's would: save, snapshot, page.
   */
  async function card(extra: Record<string, unknown> = {}, design: Record<string, unknown> = {}, key = account.liveKey, ecard = ecardId) {
    const chosen = Object.keys(design).length > 0 ? await ecardWith(design) : ecard;
    const sent = await shareCard(stack.url, key, chosen, { recipientName: 'Alice Able', senderName: 'Sam Sender', personalMessage: 'Happy birthday! Lunch is on me this Friday.', ...extra });
    const send = (await stack.models.Send.findOne({ where: { stat_vanity_id: sent.statVanityId } }))!;
    const recipient = (await stack.models.SendRecipient.findOne({ where: { send_id: send.id } }))!;
    return { ...sent, send, recipient, url: sent.shareUrl };
  }

  async function ecardWith(fields: Record<string, unknown>): Promise<number> {
    const base = { widgetid: widgetId, name: 'Card', header: 'Happy day', details: (await stack.models.Ecard.findByPk(ecardId))!.details, self_hosted_url: `${media.url}/cover.svg` };
    const res = await call(stack.url, 'POST', '/v2/api/ecard/save', { key: account.liveKey, body: { myEcard: { ...base, ...fields } } });
    return (expectSuccess(res) as { id: number }).id;
  }

  // Code run in the page is written as strings (this project's TypeScript has no DOM types).
  const state = (page: Page) => page.evaluate<string[]>("['is-sealed', 'is-opening', 'is-open'].filter((c) => document.documentElement.classList.contains(c))");
  const css = (page: Page, selector: string, property: string) => page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).${property}`);
  const fitsWidth = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
  const focused = (page: Page) => page.evaluate<string>('document.activeElement.className');
  const audioState = (page: Page) => page.evaluate<{ paused: boolean; loop: boolean }>("(({ paused, loop }) => ({ paused, loop }))(document.querySelector('.card audio'))");
  const openedAt = async (recipient: { reload(): Promise<{ opened_at: Date | null }> }) => (await recipient.reload()).opened_at;

  /** Records the page's animations and any canvas added to it, from before its script runs. */
  async function watchMotion(context: BrowserContext): Promise<void> {
    await context.addInitScript({
      content: `window.motion = { animations: [], canvases: 0 };
        document.addEventListener('animationstart', (e) => window.motion.animations.push(e.animationName), true);
        new MutationObserver((records) => {
          for (const r of records) for (const n of r.addedNodes) if (n.nodeName === 'CANVAS') window.motion.canvases++;
        }).observe(document, { childList: true, subtree: true });`,
    });
  }
  const motion = (page: Page) => page.evaluate<{ animations: string[]; canvases: number }>('window.motion');

  describe('sealed', () => {
    it('shows the recipient\'s name on the envelope in the eCard\'s colours, over its background, and passes axe-core', async () => {
      const colors = { envelope: '#2a9d8f', liner: '#e76f51', background: '#264653', accent: '#e9c46a' };
      const { url } = await card({ overrideProps: { envelope_color_settings: JSON.stringify(colors) } });
      for (const viewport of [DESKTOP, PHONE]) {
        const { page } = await open({ viewport, axe: true });
        await page.goto(url);
        expect(await state(page)).to.deep.equal(['is-sealed']);
        expect(await page.locator('.env-to').textContent()).to.equal('For Alice Able');
        expect(await css(page, '.env-front', 'backgroundColor')).to.equal('rgb(42, 157, 143)');
        expect(await css(page, 'body', 'backgroundColor')).to.equal('rgb(38, 70, 83)');
        expect(await page.locator('.card').isVisible()).to.equal(false);
        // Nothing wider than the screen.
        expect(await fitsWidth(page)).to.equal(true);
        await screenshot(page, `card-sealed-colours-${viewport.width}`);
        await expectAccessible(page);
      }
    });

    it('draws each of the four themes its own way', async () => {
      const seen = new Set<string>();
      for (const theme of ['classic', 'modern', 'kraft', 'night']) {
        const { url } = await card({}, { envelope_theme: theme });
        const { page } = await open({ viewport: theme === 'kraft' || theme === 'modern' ? PHONE : DESKTOP });
        await page.goto(url);
        expect(await page.locator('html').getAttribute('data-theme')).to.equal(theme);
        const look = `${await css(page, '.env-front', 'backgroundColor')} ${await css(page, 'body', 'backgroundColor')}`;
        seen.add(look);
        await screenshot(page, `card-theme-${theme}`);
      }
      expect(seen.size).to.equal(4);
    });
  });

  describe('opening', () => {
    it('by a click: the open action once, the flap and the card in motion, then the card open; confetti; no other host asked', async () => {
      const { url, recipient, statVanityId } = await card({ overrideProps: { envelope_confetti: true } });
      const { context, page, violations } = await open();
      await watchMotion(context);
      const elsewhere: string[] = [];
      await context.route('**/*', async (route) => {
        const target = new URL(route.request().url());
        if (target.origin !== new URL(stack.url).origin && target.origin !== media.url) {
          elsewhere.push(target.origin);
          await route.abort();
        } else await route.continue();
      });
      const posts: string[] = [];
      page.on('request', (r) => r.method() === 'POST' && posts.push(new URL(r.url()).pathname));
      await page.goto(url);
      await page.locator('.env').click();
      await page.locator('html.is-opening').waitFor({ state: 'attached' });
      await page.locator('canvas.confetti').waitFor({ state: 'attached' });
      await page.locator('html.is-open').waitFor({ state: 'attached' });
      await page.getByRole('heading', { name: 'Happy day' }).waitFor({ state: 'visible' });
      expect(await page.locator('.stage').isVisible()).to.equal(false);
      const { animations } = await motion(page);
      expect(animations).to.include.members(['flap-open', 'letter-rise', 'card-in']);
      expect(await openedAt(recipient)).to.be.instanceOf(Date);
      expect(posts).to.deep.equal([`/e/${statVanityId}/open`]);
      expect(elsewhere).to.deep.equal([]);
      expect(violations).to.deep.equal([]);
      await screenshot(page, 'card-open-desktop');
    });

    it('by keyboard alone at 375 px: Tab reaches the envelope, Space opens it, focus moves to the card', async () => {
      const { url, recipient } = await card();
      const { page, violations } = await open({ viewport: PHONE });
      await page.goto(url);
      await page.keyboard.press('Tab');
      expect(await focused(page)).to.equal('open');
      await page.keyboard.press('Space');
      await page.locator('html.is-open').waitFor({ state: 'attached' });
      expect(await focused(page)).to.equal('card');
      await eventually(async () => openedAt(recipient), (at) => at !== null);
      expect(await fitsWidth(page)).to.equal(true);
      expect(violations).to.deep.equal([]);
      await screenshot(page, 'card-open-phone');
    });

    it('under prefers-reduced-motion: a fade only, and no confetti canvas', async () => {
      const { url } = await card({ overrideProps: { envelope_confetti: true } });
      const { context, page } = await open({ reducedMotion: 'reduce' });
      await watchMotion(context);
      await page.goto(url);
      await page.getByRole('button', { name: 'Open your eCard' }).click();
      await page.locator('html.is-open').waitFor({ state: 'attached' });
      const { animations, canvases } = await motion(page);
      expect(animations.length).to.be.greaterThan(0);
      expect([...new Set(animations)].sort()).to.deep.equal(['fade-in', 'fade-out']);
      expect(canvases).to.equal(0);
    });

    it('without JavaScript: the form opens the card and marks the recipient opened once', async () => {
      const { url, recipient, statVanityId } = await card();
      const { page } = await open({ javaScriptEnabled: false });
      await page.goto(url);
      expect(await openedAt(recipient)).to.equal(null);
      await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Open your eCard' }).click()]);
      expect(await state(page)).to.deep.equal(['is-open']);
      await page.getByRole('heading', { name: 'Happy day' }).waitFor({ state: 'visible' });
      const first = await openedAt(recipient);
      expect(first).to.be.instanceOf(Date);
      await page.reload();
      await fetch(`${stack.url}/e/${statVanityId}/open`, { method: 'POST', redirect: 'manual' });
      expect((await openedAt(recipient))!.getTime()).to.equal(first!.getTime());
      // No script: no Replay, no print button.
      expect(await page.locator('.replay').isVisible()).to.equal(false);
      expect(await page.locator('.print').isVisible()).to.equal(false);
    });
  });

  describe('open', () => {
    it('a second visit shows the card open with Replay, which plays the envelope again without a second open action; axe-core', async () => {
      const { url } = await card({ overrideProps: { envelope_confetti: true } });
      await fetch(`${url}/open`, { method: 'POST', redirect: 'manual' });
      const { context, page } = await open({ axe: true });
      await watchMotion(context);
      const posts: string[] = [];
      page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
      await page.goto(url);
      expect(await state(page)).to.deep.equal(['is-open']);
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Replay' }).click();
      await page.locator('html.is-opening').waitFor({ state: 'attached' });
      await page.locator('html.is-open').waitFor({ state: 'attached' });
      expect((await motion(page)).animations).to.include('flap-open');
      expect(posts).to.deep.equal([]);
    });

    it('the print stylesheet prints the card alone', async () => {
      const { url } = await card();
      await fetch(`${url}/open`, { method: 'POST', redirect: 'manual' });
      const { page } = await open();
      await page.goto(url);
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('.card').isVisible()).to.equal(true);
      for (const hidden of ['.toolbar', '.thanks', '.share']) expect(await page.locator(hidden).isVisible(), hidden).to.equal(false);
    });

    it('classic mode shows the card at once, with no envelope', async () => {
      const { url } = await card({}, { ecard_mode: 'classic' });
      const { page } = await open({ viewport: PHONE });
      await page.goto(url);
      expect(await state(page)).to.deep.equal(['is-open']);
      expect(await page.locator('.stage').count()).to.equal(0);
      await page.getByRole('heading', { name: 'Happy day' }).waitFor({ state: 'visible' });
      await screenshot(page, 'card-classic-mode');
    });

    it('Hebrew reads right to left', async () => {
      const { url } = await card({ locale: 'he' }, { envelope_theme: 'night' });
      const { page } = await open({ viewport: PHONE });
      await page.goto(url);
      expect(await page.locator('html').getAttribute('dir')).to.equal('rtl');
      expect(await page.locator('html').getAttribute('lang')).to.equal('he');
      await page.locator('.open').click();
      await page.locator('html.is-open').waitFor({ state: 'attached' });
      const note = { dir: await css(page, '.message', 'direction'), right: await css(page, '.message', 'borderRightWidth'), left: await css(page, '.message', 'borderLeftWidth') };
      expect(note).to.deep.equal({ dir: 'rtl', right: '4px', left: '0px' });
      // "From …" sits at the end of the line, which in Hebrew is the left.
      const gap = await page.evaluate<number>(`(() => {
        const el = document.querySelector('.from');
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getBoundingClientRect().left - el.getBoundingClientRect().left;
      })()`);
      expect(gap).to.be.below(2);
      await screenshot(page, 'card-hebrew');
    });
  });

  describe('music', () => {
    it('is paused until the open gesture, then plays (looping when asked), with a visible pause control', async () => {
      const { url } = await card({ overrideProps: { envelope_audio_url: `${media.url}/tone.wav` } }, { envelope_audio_repeat: true });
      const { page, violations } = await open();
      await page.goto(url);
      expect((await audioState(page)).paused).to.equal(true);
      await page.locator('.env').click();
      await page.waitForFunction("!document.querySelector('.card audio').paused");
      expect((await audioState(page)).loop).to.equal(true);
      await page.locator('html.is-open').waitFor({ state: 'attached' });
      const toggle = page.getByRole('button', { name: 'Pause music' });
      await toggle.click();
      await page.getByRole('button', { name: 'Play music' }).waitFor({ state: 'visible' });
      expect((await audioState(page)).paused).to.equal(true);
      expect(violations).to.deep.equal([]);
    });
  });

  describe('contrast', () => {
    it('a brand with white text on a white card still renders readable text', async () => {
      const other = await newAccount(stack.models, 'pro');
      expectSuccess(await call(stack.url, 'POST', '/v2/api/brand/save', { key: other.liveKey, body: { brand: { name: 'Blank', is_default: true, text_color: '#ffffff', background_color: '#ffffff', primary_color: '#ffffff' } } }));
      const widget = await insertWidget(stack.models, other.accountId);
      const ecard = await insertEcard(stack.models, other.accountId, widget.id);
      const { url } = await card({}, {}, other.liveKey, ecard.id);
      const { page } = await open();
      await page.goto(url);
      await page.locator('.open').click();
      await page.locator('html.is-open').waitFor({ state: 'attached' });
      const pairs = await page.evaluate<Array<{ sel: string; fg: string; bg: string }>>(`
        ['.card h1', '.card .body p', '.intro', '.from', '.message', '.thanks button'].map((sel) => {
          const el = document.querySelector(sel);
          const holder = sel === '.message' || sel === '.thanks button' ? el : document.querySelector('.card');
          return { sel, fg: getComputedStyle(el).color, bg: getComputedStyle(holder).backgroundColor };
        })`);
      const hex = (rgb: string) => `#${rgb.match(/\d+/g)!.slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;
      for (const { sel, fg, bg } of pairs) expect(contrastRatio(hex(fg), hex(bg)), `${sel}: ${fg} on ${bg}`).to.be.at.least(4.5);
      expect(pairs[0]!.bg).to.equal('rgb(255, 255, 255)');
      // The white brand's buttons still stand out from the white card.
      expect(contrastRatio(hex(await css(page, '.thanks button', 'backgroundColor')), hex(await css(page, '.thanks', 'backgroundColor')))).to.be.at.least(3);
      await screenshot(page, 'card-white-on-white-brand');
    });
  });
});
