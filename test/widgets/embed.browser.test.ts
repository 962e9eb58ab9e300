// The embed in Chromium: a host page from another origin embeds two public widgets with the loader's snippet; the
// widget pages (/w/…) speak to it through /embed/bridge.js. What the host sees: the anchor's events on its
// document, frames as tall as their content, nothing for a host the widget does not allow (the browser refuses
// to frame it) and nothing for messages from any window but the loader's own frame.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { newAccount } from '../helpers/api.ts';
import { newPage, screenshot } from '../helpers/browser.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';

/** A host site: a tiny server of its own origin (a loopback port), answering the pages a test gives it. */
interface HostSite {
  origin: string;
  pages: Map<string, string>;
}

async function hostSite(): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://host').pathname);
    if (page === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pages };
}

const EVENT_NAMES = ['ecwWidgetLoaded', 'ecwOpenEcardForm', 'ecwShareSuccess'];

/**
 * A host page as a customer writes it: its own script listening for the widget's events (recorded in
 * `window.seen`), then the snippet of each embed (a script tag and its anchor).
 */
function hostPage(base: string, embeds: Array<{ kind: 'widget' | 'ecard'; vanity: string }>, vanitiesHeard: string[]): string {
  const names = [...EVENT_NAMES, ...vanitiesHeard.map((v) => `ecwWidgetLoaded_${v}`)];
  const snippets = embeds
    .map(({ kind, vanity }) => `<script src="${base}/embed/${kind}/${vanity}" async></script>\n<div id="cardsvc_${kind}_${vanity}"></div>`)
    .join("\n<p>Between the widgets: the host page's own text.</p>\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A customer's site</title></head><body>
<h1>Send a card to a colleague</h1>
<script>
  window.seen = [];
  ${JSON.stringify(names)}.forEach(function (name) {
    document.addEventListener(name, function (event) {
      window.seen.push({ name: name, detail: event.detail });
      if (window.reportEvent) window.reportEvent({ name: name, detail: event.detail });
    });
  });
  // A barrier: posted after a forged message, seen once the forged one has been handled.
  window.addEventListener('message', function (event) { if (event.data === 'barrier') window.seen.push({ name: 'barrier' }); });
</script>
${snippets}
</body></html>`;
}

describe('the embed in Chromium: a widget framed by another site, its events and its height', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let browser: Browser;
  let host: HostSite;
  let third: HostSite;

  before(async function () {
    // Browser flows run once, on SQLite.
    if (mysqlUrl) this.skip();
    stack = await testStack();
    browser = (await newPage()).context.browser()!;
    host = await hostSite();
    third = await hostSite();
  });

  /** A new context with the pages' own CSP enforced (frame-ancestors included). */
  async function open(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    onSuiteEnd(() => context.close());
    return { context, page: await context.newPage() };
  }

  const seen = (page: Page) => page.evaluate<Array<{ name: string; detail?: unknown }>>('window.seen');
  const frameOf = async (page: Page, anchor: string): Promise<Frame> => {
    const element = await page.waitForSelector(`#${anchor} iframe`, { state: 'attached' });
    return (await element.contentFrame())!;
  };
  /** The iframe's height as the loader set it, once it matches its content's (the bridge's resize, applied). */
  async function settledHeight(page: Page, anchor: string): Promise<number> {
    const frame = await frameOf(page, anchor);
    await frame.waitForLoadState('load');
    const content = await frame.evaluate<number>('Math.ceil(document.documentElement.getBoundingClientRect().height)');
    await page.waitForFunction(`document.querySelector('#${anchor} iframe').style.height === '${content}px'`);
    return content;
  }

  it('loads two widgets on one page: each its loaded events, each frame as tall as its cards', async function () {
    const account = await newAccount(stack.models);
    const few = await insertPublicWidget(stack.models, account.accountId, { ecards: 2, wconfig: { allowedOrigins: [host.origin], thumbColumns: 3 } });
    const many = await insertPublicWidget(stack.models, account.accountId, { ecards: 9, wconfig: { allowedOrigins: [host.origin], thumbColumns: 3 } });
    const [a, b] = [few.widget.vanity_id, many.widget.vanity_id];
    host.pages.set('/two', hostPage(stack.config.publicBaseUrl, [{ kind: 'widget', vanity: a }, { kind: 'widget', vanity: b }], [a, b]));
    const { page } = await open();
    await page.goto(`${host.origin}/two`);

    await page.waitForFunction('window.seen.filter((e) => e.name.startsWith("ecwWidgetLoaded")).length >= 4');
    const loaded = (await seen(page)).filter((e) => e.name.startsWith('ecwWidgetLoaded'));
    expect(loaded).to.have.deep.members([
      { name: 'ecwWidgetLoaded', detail: { widgetid: a } },
      { name: `ecwWidgetLoaded_${a}`, detail: { widgetid: a } },
      { name: 'ecwWidgetLoaded', detail: { widgetid: b } },
      { name: `ecwWidgetLoaded_${b}`, detail: { widgetid: b } },
    ]);

    const frameA = await frameOf(page, `cardsvc_widget_${a}`);
    expect(frameA.url()).to.equal(`${stack.config.publicBaseUrl}/w/${a}`);
    const title = await page.getAttribute(`#cardsvc_widget_${a} iframe`, 'title');
    expect(title).to.be.a('string').and.not.equal('');
    const heightA = await settledHeight(page, `cardsvc_widget_${a}`);
    const heightB = await settledHeight(page, `cardsvc_widget_${b}`);
    // Three rows of cards against one: the frame follows its content, no inner scroll bar.
    expect(heightB).to.be.greaterThan(heightA + 100);
    await page.setViewportSize({ width: 1100, height: heightA + heightB + 400 });
    await screenshot(page, 'widget-embed-two-widgets');
  });

  it("ignores messages from any window but the loader's own frame, even in the protocol's shape", async function () {
    const account = await newAccount(stack.models);
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { ecards: 1, wconfig: { allowedOrigins: [host.origin] } });
    const vanity = widget.vanity_id;
    host.pages.set('/forged', hostPage(stack.config.publicBaseUrl, [{ kind: 'widget', vanity }], [vanity]));
    const { page } = await open();
    await page.goto(`${host.origin}/forged`);
    await page.waitForFunction(`window.seen.some((e) => e.name === 'ecwWidgetLoaded_${vanity}')`);
    const forged = (type: string, data: unknown) => ({ ns: 'cardsvc', v: 1, vanity, type, data });
    const ecard = { ecardid: ecards[0]!.id, vanity_id: ecards[0]!.vanity_id, name: 'Card 1', thumb_image: null };
    const before = await page.evaluate<string>(`document.querySelector('#cardsvc_widget_${vanity} iframe').style.height`);
    await page.evaluate(`(${JSON.stringify([
      forged('event', { type: 'open-form', data: { vanity_id: vanity, ecard } }),
      forged('event', { type: 'share-success', data: { vanity_id: vanity, share_mode: 'email', form_data: {}, ecard } }),
      forged('resize', { height: 1234 }),
      forged('redirect', { url: `${third.origin}/away` }),
    ])}).forEach((m) => window.postMessage(m, '*')); window.postMessage('barrier', '*');`);
    await page.waitForFunction("window.seen.some((e) => e.name === 'barrier')");
    const names = (await seen(page)).map((e) => e.name);
    expect(names).to.not.include('ecwOpenEcardForm');
    expect(names).to.not.include('ecwShareSuccess');
    expect(page.url()).to.equal(`${host.origin}/forged`);
    expect(await page.evaluate<string>(`document.querySelector('#cardsvc_widget_${vanity} iframe').style.height`)).to.equal(before);
  });

  it("ignores the service's own pages in any frame but the loader's: the same widget framed by the host itself", async function () {
    const account = await newAccount(stack.models);
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { ecards: 2, wconfig: { allowedOrigins: [host.origin] } });
    const vanity = widget.vanity_id;
    const base = stack.config.publicBaseUrl;
    // The host frames the widget a second time by hand and says hello to that frame itself: its bridge then tells
    // the host everything, from the service's origin, with the widget's vanity, but not from the loader's frame.
    const rogue = `<iframe id="rogue" title="Another frame" src="${base}/w/${vanity}" style="width:100%;height:300px;border:0"></iframe>
<script>
  var rogue = document.getElementById('rogue');
  window.fromRogue = [];
  window.addEventListener('message', function (event) { if (event.source === rogue.contentWindow) window.fromRogue.push(event.data); });
  rogue.addEventListener('load', function () {
    rogue.contentWindow.postMessage({ ns: 'cardsvc', v: 1, vanity: ${JSON.stringify(vanity)}, type: 'hello', data: {} }, ${JSON.stringify(new URL(base).origin)});
  });
</script>`;
    host.pages.set('/rogue', hostPage(base, [{ kind: 'widget', vanity }], [vanity]).replace('</body>', `${rogue}\n</body>`));
    const { page } = await open();
    await page.goto(`${host.origin}/rogue`);
    await page.waitForFunction(`window.seen.some((e) => e.name === 'ecwWidgetLoaded_${vanity}')`);
    const height = await settledHeight(page, `cardsvc_widget_${vanity}`);
    const rogueFrame = (await (await page.waitForSelector('#rogue')).contentFrame())!;
    await page.waitForFunction("window.fromRogue.some((m) => m.type === 'event' && m.data.type === 'loaded')");
    await rogueFrame.click(`a[data-ecard="${ecards[1]!.vanity_id}"]`);
    // The rogue frame's form opened and said so (with its new height), in the protocol's shape...
    await page.waitForFunction("window.fromRogue.some((m) => m.type === 'event' && m.data.type === 'open-form')");
    await page.waitForFunction(`window.fromRogue.some((m) => m.type === 'resize' && m.data.height !== ${height})`);
    // ...and the loader, listening only to its own frame, heard none of it.
    expect((await seen(page)).map((e) => e.name)).to.not.include('ecwOpenEcardForm');
    expect(await page.evaluate<string>(`document.querySelector('#cardsvc_widget_${vanity} iframe').style.height`)).to.equal(`${height}px`);
  });

  it('is not framed by a site outside allowedOrigins: the browser refuses the page, no event arrives', async function () {
    const account = await newAccount(stack.models);
    const only = await insertPublicWidget(stack.models, account.accountId, { ecards: 1, wconfig: { allowedOrigins: [host.origin] } });
    const anyone = await insertPublicWidget(stack.models, account.accountId, { ecards: 1 });
    const [refused, open_] = [only.widget.vanity_id, anyone.widget.vanity_id];
    third.pages.set('/', hostPage(stack.config.publicBaseUrl, [{ kind: 'widget', vanity: open_ }, { kind: 'widget', vanity: refused }], [open_, refused]));
    const { page } = await open();
    await page.goto(`${third.origin}/`);
    // The widget that allows any origin loads on this site...
    await page.waitForFunction(`window.seen.some((e) => e.name === 'ecwWidgetLoaded_${open_}')`);
    // ...the other's frame holds the browser's refusal, not the widget's page.
    const frame = await frameOf(page, `cardsvc_widget_${refused}`);
    await frame.waitForLoadState('load');
    expect(frame.url()).to.match(/^chrome-error:/);
    expect(await frame.evaluate<number>("document.querySelectorAll('script[src=\"/embed/bridge.js\"]').length").catch(() => 0)).to.equal(0);
    const names = (await seen(page)).map((e) => e.name);
    expect(names).to.not.include(`ecwWidgetLoaded_${refused}`);
    expect(names.filter((n) => n === 'ecwWidgetLoaded')).to.have.length(1);
    await screenshot(page, 'widget-embed-refused-origin');
  });

  it("embeds one eCard alone: its form in the eCard's anchor, the widget's loaded and form-open events, a frame as tall as the form", async function () {
    const account = await newAccount(stack.models);
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { ecards: 2, wconfig: { allowedOrigins: [host.origin] } });
    const ecard = ecards[1]!;
    const vanity = widget.vanity_id;
    host.pages.set('/one', hostPage(stack.config.publicBaseUrl, [{ kind: 'ecard', vanity: ecard.vanity_id }], [vanity]));
    const { page } = await open();
    await page.goto(`${host.origin}/one`);
    await page.waitForFunction(`window.seen.some((e) => e.name === 'ecwWidgetLoaded_${vanity}')`);
    // The form is open from the start: the host hears so once.
    await page.waitForFunction("window.seen.some((e) => e.name === 'ecwOpenEcardForm')");
    expect((await seen(page)).filter((e) => e.name === 'ecwOpenEcardForm').map((e) => e.detail)).to.deep.equal([
      { vanity_id: vanity, ecard: { ecardid: ecard.id, vanity_id: ecard.vanity_id, name: 'Card 2', thumb_image: null } },
    ]);
    const frame = await frameOf(page, `cardsvc_ecard_${ecard.vanity_id}`);
    expect(frame.url()).to.equal(`${stack.config.publicBaseUrl}/w/${vanity}/e/${ecard.vanity_id}`);
    expect(await page.getAttribute(`#cardsvc_ecard_${ecard.vanity_id} iframe`, 'title')).to.equal('Card 2');
    expect(await frame.locator('input[name="sender_email"]').count()).to.equal(1);
    const height = await settledHeight(page, `cardsvc_ecard_${ecard.vanity_id}`);
    expect(height).to.be.greaterThan(300);
    await page.setViewportSize({ width: 1100, height: height + 200 });
    await screenshot(page, 'widget-embed-one-ecard');
  });

  it('sends a chosen card to two recipients from the host page: the form-open and success events, both emails, then the redirect', async function () {
    // The widget's own API, on a clock the test holds 10 s back while the page takes its form tokens (a person
    // takes longer than the 3 s trap to fill the form), then lets go for the send.
    let offsetMs = -10_000;
    const app = await extraApp({ now: () => new Date(Date.now() + offsetMs) });
    const account = await newAccount(stack.models, 'pro');
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { ecards: 3, wconfig: { allowedOrigins: [host.origin] } });
    const chosen = ecards[1]!;
    await chosen.update({ url_redirect_after_send: `${host.origin}/after-send` });
    const vanity = widget.vanity_id;
    host.pages.set('/send', hostPage(app.url, [{ kind: 'widget', vanity }], [vanity]));
    host.pages.set('/after-send', '<!doctype html><html lang="en"><head><title>Thank you</title></head><body><p>Thanks for sending.</p></body></html>');
    const { page } = await open();
    const reported: Array<{ name: string; detail: Record<string, unknown> }> = [];
    await page.exposeFunction('reportEvent', (event: { name: string; detail: Record<string, unknown> }) => reported.push(event));
    await page.goto(`${host.origin}/send`);
    await page.waitForFunction(`window.seen.some((e) => e.name === 'ecwWidgetLoaded_${vanity}')`);
    const frame = await frameOf(page, `cardsvc_widget_${vanity}`);
    const card = { ecardid: chosen.id, vanity_id: chosen.vanity_id, name: 'Card 2', thumb_image: null };

    await frame.click(`a[data-ecard="${chosen.vanity_id}"]`);
    await page.waitForFunction("window.seen.some((e) => e.name === 'ecwOpenEcardForm')");
    expect(reported.filter((e) => e.name === 'ecwOpenEcardForm').map((e) => e.detail)).to.deep.equal([{ vanity_id: vanity, ecard: card }]);

    const [rita, tom, sam] = [`rita-${process.pid}-${chosen.id}@example.com`, `tom-${process.pid}-${chosen.id}@example.com`, `sam-${process.pid}-${chosen.id}@example.com`];
    await frame.fill('input[name="recipients[0][name]"]', 'Rita Reader');
    await frame.fill('input[name="recipients[0][email]"]', rita);
    await frame.click('[data-add]');
    await frame.fill('input[name="recipients[1][name]"]', 'Tom Twice');
    await frame.fill('input[name="recipients[1][email]"]', tom);
    await frame.fill('input[name="sender_name"]', 'Sam Sender');
    await frame.fill('input[name="sender_email"]', sam);
    await frame.fill('textarea[name="personalMessage"]', 'Happy birthday to you both!');
    await page.setViewportSize({ width: 1100, height: 1400 });
    await screenshot(page, 'widget-embed-form-in-host');
    offsetMs = 0;
    await Promise.all([page.waitForURL(`${host.origin}/after-send`), frame.click('button[data-main]')]);

    const success = reported.filter((e) => e.name === 'ecwShareSuccess').map((e) => e.detail);
    expect(success).to.deep.equal([
      {
        vanity_id: vanity,
        share_mode: 'email',
        form_data: {
          recipients: [
            { name: 'Rita Reader', email: rita },
            { name: 'Tom Twice', email: tom },
          ],
          sender: { name: 'Sam Sender', email: sam },
          personalMessage: 'Happy birthday to you both!',
          getReadReceipt: false,
          optedIn: false,
          setSchedule: null,
        },
        ecard: card,
      },
    ]);
    const smtp = await testSmtpServer();
    const mails = await eventually(async () => [rita, tom].flatMap((a) => smtp.to(a)), (m) => m.length === 2, 20_000);
    expect(mails.map((m) => m.to)).to.have.deep.members([[rita], [tom]]);
  });
});
