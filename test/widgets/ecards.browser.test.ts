// The widget's eCards tab in Chromium: reorder by drag and drop and by keyboard (saved at once; the key API reads
// the new order), delete an eCard a send used through the inline confirmation (the sent card still opens),
// axe-core, 375 px without sideways scrolling; screenshots in test-artifacts/.
import { expect } from 'chai';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { apiClient, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { expectAccessible, screenshot, signedInPage, fitsWidth } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// Artwork for the cards: gradients with a word, uploaded as this account's media (the console shows its thumbnails).
const ART: Array<[string, string, string, string]> = [
  ['Happy birthday', '#f6d365', '#fda085', 'Cake!'],
  ['Thank you', '#a1c4fd', '#c2e9fb', 'Thanks'],
  ['Welcome aboard', '#d4fc79', '#96e6a1', 'Hello'],
  ['Congratulations', '#fbc2eb', '#a6c1ee', 'Bravo'],
];
const svg = ([, from, to, word]: [string, string, string, string]) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="720"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="960" height="720" fill="url(#g)"/><circle cx="240" cy="250" r="120" fill="#fff" opacity=".35"/><text x="480" y="400" font-family="Georgia, serif" font-size="110" text-anchor="middle" fill="#3b2a4a">${word}</text></svg>`;

describe('the widget\'s eCards tab in Chromium', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let account: TestAccount;
  let key: string;
  let widgetId: number;
  let ids: number[];
  let page: Page;

  const { ok } = apiClient(() => stack, () => key);
  const apiOrder = async () => (await ok<Array<{ name: string }>>('GET', `/ecard/search?widgetid=${widgetId}&sortBy=displayorder`)).map((e) => e.name);
  const gridOrder = () => page.locator('.wcard-name').allTextContents();
  const status = () => page.locator('#wgrid-status');

  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models);
    key = (await newKey(stack.models, account.accountId, { ecards: 'manage', widgets: 'manage' })).key;
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Team celebrations' });
    await insertWidget(stack.models, account.accountId, { name: 'Holiday greetings' });
    widgetId = widget.id;
    ids = [];
    for (const [i, art] of ART.entries()) {
      const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: art[0], display_order: i });
      const png = await sharp(Buffer.from(svg(art))).png().toBuffer();
      const { url } = await ok<{ url: string }>('POST', '/ecard/uploadMediaImage', { imageBase: png.toString('base64') });
      await ok('POST', '/ecard/save', { myEcard: { id: ecard.id, self_hosted_url: url } });
      ids.push(ecard.id);
    }
    await ok('POST', '/widget/save', { widget: { id: widgetId }, ecardPrices: { [ids[1]!]: 4.99 } });
    await ok('POST', '/ecard/bulkUpdate', { ecardids: [ids[3]], fieldName: 'disabled', fieldValue: true });
    ({ page } = await signedInPage(stack, account.accountId));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  async function openGrid(): Promise<void> {
    await page.goto(`${stack.url}/v2/console/widgets/${widgetId}/ecards`);
    await page.waitForFunction('document.documentElement.classList.contains("wgrid-js") && [...document.images].every((img) => img.complete)');
  }

  it('shows the grid of cards with their artwork, badges and actions (accessible, screenshots)', async () => {
    await openGrid();
    expect(await gridOrder()).to.deep.equal(ART.map((a) => a[0]));
    expect(await page.evaluate<number>('[...document.querySelectorAll(".wcard-thumb img")].filter((img) => img.naturalWidth > 0).length')).to.equal(4);
    expect(await page.locator('.wcard').nth(1).locator('.badge').allTextContents()).to.deep.equal(['Price 4.99']);
    expect(await page.locator('.wcard').nth(3).locator('.badge').allTextContents()).to.deep.equal(['Hidden', 'Free']);
    expect(await page.getByRole('link', { name: 'New eCard' }).getAttribute('href')).to.equal(`/v2/console/ecards/new?widgetid=${widgetId}`);
    await screenshot(page, 'widget-ecards-grid');
    await expectAccessible(page);
    await page.locator('.wcard').first().locator('summary').click();
    await screenshot(page, 'widget-ecards-more-open');
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'widget-ecards-dark');
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('reorders by drag and drop, saved at once (the key API reads the new order)', async () => {
    await openGrid();
    const thumbs = page.locator('.wcard-thumb');
    // The first card dropped on the third: it takes the third's place.
    await thumbs.nth(0).dragTo(thumbs.nth(2));
    await status().filter({ hasText: 'Order saved' }).waitFor();
    const dragged = ['Thank you', 'Welcome aboard', 'Happy birthday', 'Congratulations'];
    expect(await gridOrder()).to.deep.equal(dragged);
    expect(await page.evaluate<string[]>('[...document.querySelectorAll(".wcard input[name^=pos_]")].map((input) => input.value)')).to.deep.equal(['1', '2', '3', '4']);
    expect(await eventually(apiOrder, (order) => order.join() === dragged.join())).to.deep.equal(dragged);
    // And back: the last card dropped on the first.
    await thumbs.nth(3).dragTo(thumbs.nth(0));
    await eventually(apiOrder, (order) => order[0] === 'Congratulations');
    expect(await apiOrder()).to.deep.equal(['Congratulations', 'Thank you', 'Welcome aboard', 'Happy birthday']);
    await page.reload();
    expect(await gridOrder()).to.deep.equal(['Congratulations', 'Thank you', 'Welcome aboard', 'Happy birthday']);
  });

  it('reorders by keyboard: Alt+ArrowDown and the move buttons, the focus staying on the card', async () => {
    await openGrid();
    await page.getByLabel('Position').first().focus();
    await page.keyboard.press('Alt+ArrowDown');
    await status().filter({ hasText: 'Order saved' }).waitFor();
    expect(await gridOrder()).to.deep.equal(['Thank you', 'Congratulations', 'Welcome aboard', 'Happy birthday']);
    expect(await page.evaluate<string | undefined>('document.activeElement.closest(".wcard")?.dataset.name')).to.equal('Congratulations');
    await page.getByRole('button', { name: 'Move Happy birthday earlier' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const keyed = ['Thank you', 'Happy birthday', 'Congratulations', 'Welcome aboard'];
    expect(await gridOrder()).to.deep.equal(keyed);
    expect(await eventually(apiOrder, (order) => order.join() === keyed.join())).to.deep.equal(keyed);
    await screenshot(page, 'widget-ecards-keyboard');
  });

  it('deletes an eCard a send used through the inline confirmation; the sent card still opens', async () => {
    const used = ids[0]!;
    const shared = await shareCard(stack.url, account.liveKey, used);
    await eventually(() => fetch(`${stack.url}/e/${shared.statVanityId}`).then((r) => r.status), (s) => s === 200, 15_000, 100);
    await openGrid();
    const card = page.locator('.wcard', { hasText: 'Happy birthday' });
    await card.locator('summary').click();
    await Promise.all([page.waitForURL(`${stack.url}/v2/console/widgets/ecards/${used}/delete`), card.getByRole('button', { name: 'Delete Happy birthday' }).click()]);
    await page.getByRole('heading', { name: 'Delete the eCard “Happy birthday”?' }).waitFor();
    expect(await page.textContent('main')).to.include('It is used by 1 send.');
    await screenshot(page, 'widget-ecards-delete-confirm');
    await expectAccessible(page);
    await Promise.all([page.waitForURL(`${stack.url}/v2/console/widgets/${widgetId}/ecards?done=deleted`), page.getByRole('button', { name: 'Delete the eCard' }).click()]);
    expect(await page.getByRole('status').filter({ hasText: 'The eCard is deleted.' }).count()).to.equal(1);
    expect(await gridOrder()).to.not.include('Happy birthday');
    expect(await stack.models.Ecard.count({ where: { id: used } })).to.equal(0);
    const res = await page.goto(`${stack.url}/e/${shared.statVanityId}`);
    expect(res?.status()).to.equal(200);
    await page.getByRole('button', { name: 'Open your eCard' }).click();
    await page.getByRole('heading', { name: 'Happy day' }).waitFor({ state: 'visible' });
  });

  it('fits a 375 px screen without sideways scrolling', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await openGrid();
    expect(await fitsWidth(page)).to.equal(true);
    await page.locator('.wcard').first().locator('summary').click();
    expect(await fitsWidth(page)).to.equal(true);
    await screenshot(page, 'widget-ecards-375');
    await expectAccessible(page);
  });
});
