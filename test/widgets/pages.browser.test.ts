// The widget pages in Chromium, as an owner uses them: create a widget, change its colours and layout on Customize
// and watch the preview frame follow before saving, turn it public with allowed origins, copy the embed snippet
// with the Copy button and paste it into a page of another origin, which then shows the gallery. Each tab: axe-core,
// a 375 px window without sideways scrolling, keyboard reach, a screenshot.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { expectAccessible, screenshot, signedInPage, fitsWidth } from '../helpers/browser.ts';
import { insertEcard } from '../helpers/catalog.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

/** Presses Tab until `name` (a link or button) has the focus: it is reachable by keyboard, in order. */
async function tabTo(page: Page, role: 'tab' | 'button', name: string): Promise<void> {
  const target = role === 'tab' ? page.getByRole('navigation', { name: 'Widget sections' }).getByRole('link', { name, exact: true }) : page.getByRole(role, { name, exact: true });
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement)) return;
  }
  expect.fail(`${role} “${name}” was not reached with Tab`);
}

/** The checks every tab gets: accessible, fits 375 px, a screenshot at both widths. */
async function checkTab(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  await screenshot(page, `widgets-${name}`);
  await page.setViewportSize({ width: 375, height: 800 });
  try {
    await screenshot(page, `widgets-${name}-375`);
    expect(await fitsWidth(page), `${name} at 375 px`).to.equal(true);
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

/** A site of its own origin (a loopback port) serving one page. */
async function hostSite(): Promise<{ origin: string; pages: Map<string, string> }> {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const body = pages.get(new URL(req.url ?? '/', 'http://host').pathname);
    if (body === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pages };
}

describe('console widget pages in a browser: create, customize with a live preview, share and embed', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let account: TestAccount;
  let page: Page;
  let widgetId: number;
  let snippet: string;

  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models);
    ({ page } = await signedInPage(stack, account.accountId));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('creates a widget from the list', async () => {
    await page.goto(`${stack.url}/v2/console/widgets`);
    expect(await page.locator('main .empty').innerText()).to.include('No widgets yet');
    await checkTab(page, 'list-empty');
    await page.getByLabel('Name').fill('Garden party');
    await Promise.all([page.waitForURL(/\/widgets\/\d+\/ecards\?done=created$/), page.getByRole('button', { name: 'Create the widget' }).click()]);
    widgetId = Number(/\/widgets\/(\d+)\//.exec(page.url())![1]);
    // Setup only: an eCard for the gallery to show (the eCards tab is another page's work).
    await insertEcard(stack.models, account.accountId, widgetId, { name: 'Sunflower card' });
    await page.goto(`${stack.url}/v2/console/widgets`);
    const row = page.locator('table.widget-list tbody tr').first();
    expect((await row.locator('th, td').allInnerTexts()).slice(0, 4).map((t) => t.trim())).to.deep.equal(['Garden party', '1', '0', 'Private']);
    await checkTab(page, 'list');
  });

  it('Customize: the preview follows unsaved colours and layout, then Save keeps them', async () => {
    await page.goto(`${stack.url}/v2/console/widgets/${widgetId}/customize`);
    expect(await page.locator('main h1').innerText()).to.equal('Garden party');
    const frame = page.frameLocator('.preview-frame');
    await frame.getByText('Sunflower card').first().waitFor({ timeout: 10_000 });
    await frame.locator('ul.cards.layout-grid').waitFor();

    await page.getByLabel('Page background', { exact: true }).fill('#ff0000');
    // The picker beside a colour field writes hex into it.
    await page.getByLabel('Pick: Header text').fill('#00aa00');
    expect(await page.getByLabel('Header text', { exact: true }).inputValue()).to.equal('#00aa00');
    await page.getByLabel('Layout').selectOption('masonry');
    // The script posts the unsaved form to the frame ~300 ms after the last change.
    await frame.locator('ul.cards.layout-masonry').waitFor({ timeout: 10_000 });
    const bg = await frame.locator('body').evaluate((body) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(body).backgroundColor);
    expect(bg).to.equal('rgb(255, 0, 0)');
    const unsaved = await stack.models.Widget.findByPk(widgetId, { rejectOnEmpty: true });
    expect(unsaved.stylebg).to.equal(null);

    await Promise.all([page.waitForURL(/customize\?done=saved$/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
    expect(await page.getByRole('status').first().innerText()).to.equal('Saved.');
    const saved = await stack.models.Widget.findByPk(widgetId, { rejectOnEmpty: true });
    expect([saved.stylebg, saved.styleheadtext, saved.wconfig.layout]).to.deep.equal(['#ff0000', '#00aa00', 'masonry']);
    await frame.locator('ul.cards.layout-masonry').waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await tabTo(page, 'tab', 'Preview & Share');
    await checkTab(page, 'customize');
  });

  it('Customize: a refused save shows the message at its field in words and keeps what was typed', async () => {
    await page.goto(`${stack.url}/v2/console/widgets/${widgetId}/customize`);
    await page.getByLabel('Page background', { exact: true }).fill('not-a-colour');
    await page.getByLabel('Text', { exact: true }).fill('#abcdef');
    await page.getByLabel('Layout').selectOption('inline');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const message = page.locator('#stylebg-error');
    await message.waitFor();
    expect(await message.innerText()).to.match(/^Page background: expected a CSS colour/);
    const field = page.getByLabel('Page background', { exact: true });
    expect(await field.getAttribute('aria-invalid')).to.equal('true');
    expect(await field.getAttribute('aria-describedby')).to.equal('colour_hint stylebg-error');
    expect(await field.inputValue()).to.equal('not-a-colour');
    expect(await page.getByLabel('Text', { exact: true }).inputValue()).to.equal('#abcdef');
    expect(await page.getByLabel('Layout').inputValue()).to.equal('inline');
    expect(await page.locator('main [role="alert"]').count()).to.equal(0);
    const unchanged = await stack.models.Widget.findByPk(widgetId, { rejectOnEmpty: true });
    expect([unchanged.stylebg, unchanged.wconfig.layout]).to.deep.equal(['#ff0000', 'masonry']);
    await checkTab(page, 'customize-refused');
  });

  it('Preview & Share: public with an allowed origin, the snippet copied with the Copy button, embedded by another site', async () => {
    const host = await hostSite();
    await page.goto(`${stack.url}/v2/console/widgets/${widgetId}/share`);
    expect(await page.locator('main').innerText()).to.include('This link works once the widget is public');
    await page.getByLabel('Public: visitors may open and embed this widget').check();
    await page.getByLabel('Sites allowed to embed it').fill(host.origin);
    await Promise.all([page.waitForURL(/share\?done=public_on$/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
    const hosted = page.locator('a.hosted-link');
    expect(await hosted.getAttribute('href')).to.match(/\/w\/[A-Za-z0-9_-]+$/);

    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await tabTo(page, 'button', 'Copy');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    snippet = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    expect(snippet).to.equal(await page.locator('#embed_snippet').inputValue());
    expect(snippet).to.match(/^<script src="http:\/\/127\.0\.0\.1:\d+\/embed\/widget\/[A-Za-z0-9_-]+" async><\/script>\n<div id="cardsvc_widget_[A-Za-z0-9_-]+"><\/div>$/);
    await checkTab(page, 'share');

    // Another origin's page with the pasted snippet, in a context that enforces every CSP (frame-ancestors too).
    host.pages.set('/', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our garden party</title></head><body><h1>Send a card</h1>\n${snippet}\n</body></html>`);
    const visitor = await page.context().browser()!.newContext();
    onSuiteEnd(() => visitor.close());
    const site = await visitor.newPage();
    await site.goto(`${host.origin}/`);
    const embedded = site.frameLocator('[id^="cardsvc_widget_"] iframe');
    await embedded.getByText('Sunflower card').first().waitFor({ timeout: 15_000 });
    await screenshot(site, 'widgets-embedded-on-another-site');
  });

  it('Settings: the tab reads and saves; keyboard reaches the tabs', async () => {
    await page.goto(`${stack.url}/v2/console/widgets/${widgetId}/settings`);
    await page.getByLabel('Sender domains allowed').fill('example.com');
    await Promise.all([page.waitForURL(/settings\?done=saved$/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
    expect((await stack.models.Widget.findByPk(widgetId, { rejectOnEmpty: true })).sender_email_domains_whitelist).to.equal('example.com');
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await tabTo(page, 'tab', 'Settings');
    await checkTab(page, 'settings');
    await page.goto(`${stack.url}/v2/console/widgets/${widgetId}/delete`);
    expect(await page.locator('main').innerText()).to.include('1 eCard(s) are deleted with it.');
    await checkTab(page, 'delete');
  });
});
