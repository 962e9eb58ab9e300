// The console at 375 px: the home's tiles line up inside the window, a widget page's tabs are all reachable, the
// sends log shows each send's status, and the navigation's last groups are reached by scrolling the page (no
// scroll box of their own). Bounding boxes are checked against the window; a screenshot of each.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newAccount } from '../helpers/api.ts';
import { screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const WIDTH = 375;
/** The boxes (left, right, width) of what the selector matches, as the page lays them out. */
const boxes = (page: Page, selector: string) =>
  page.evaluate<Array<{ left: number; right: number; width: number; visible: boolean }>>(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, width: r.width, visible: r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden' }; })`,
  );

describe('the console at 375 px: home tiles, a widget’s tabs, the sends log’s status, the navigation', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;
  let widgetId: number;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    const account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Thanks' });
    widgetId = widget.id;
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Thank you card' });
    await shareCard(stack.url, account.liveKey, ecard.id);
    ({ page } = await signedInPage(stack, account.accountId));
    await page.setViewportSize({ width: WIDTH, height: 800 });
  });

  it('the home’s section tiles line up in one column inside the window', async () => {
    await page.goto(`${stack.url}/v2/console/`);
    const tiles = await boxes(page, '.grid-cards .tile');
    expect(tiles.length).to.be.above(3);
    for (const tile of tiles) {
      expect(tile.left).to.be.at.least(0);
      expect(tile.right).to.be.at.most(WIDTH);
      expect(tile.left).to.be.closeTo(tiles[0]!.left, 1);
      expect(tile.width).to.be.closeTo(tiles[0]!.width, 1);
    }
    await screenshot(page, 'home-tiles-375');
  });

  it('a widget page’s tabs are all inside the window', async () => {
    await page.goto(`${stack.url}/v2/console/widgets/${widgetId}/ecards`);
    const tabs = await boxes(page, '.tabs a');
    expect(tabs.length).to.be.above(3);
    for (const tab of tabs) expect(tab.right, 'a tab’s right edge').to.be.at.most(WIDTH);
    await screenshot(page, 'widget-tabs-375');
  });

  it('the sends log shows each send’s status inside the window', async () => {
    await page.goto(`${stack.url}/v2/console/sends`);
    const badges = await boxes(page, '.sends-table tbody .badge');
    expect(badges.length).to.equal(1);
    for (const badge of badges) {
      expect(badge.visible).to.equal(true);
      expect(badge.right, 'a status’s right edge').to.be.at.most(WIDTH);
    }
    await screenshot(page, 'sends-log-375');
  });

  it('the navigation’s last group is reached by scrolling the page, not a scroll box of its own', async () => {
    await page.goto(`${stack.url}/v2/console/`);
    await page.getByText('Menu', { exact: true }).click();
    const last = page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Password' });
    await last.scrollIntoViewIfNeeded();
    expect(await last.isVisible()).to.equal(true);
    const clipped = await page.evaluate<string[]>(
      "(() => { const out = []; const link = [...document.querySelectorAll('nav[aria-label=\"Console sections\"] a')].find((a) => a.textContent.trim() === 'Password'); for (let e = link.parentElement; e && e !== document.body; e = e.parentElement) if (e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflowY !== 'visible') out.push(e.className); return out; })()",
    );
    expect(clipped, 'scroll boxes around the navigation').to.deep.equal([]);
    await screenshot(page, 'navigation-375');
  });
});
