// The brand pages and the eCards list in Chromium: a brand made through its editor with a logo upload and colours
// (the picker and the text field kept in step), edited and made the default; the
// eCards list's bulk form changing one field of the ticked eCards. axe-core, 375 px, screenshots of every page.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { atPhoneWidth, expectAccessible, go, screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

interface BrandOut {
  id: number;
  name: string;
  is_default: boolean;
  logo_url: string | null;
  primary_color: string | null;
  accent_color: string | null;
}

describe('console in a browser: brands and the eCards list', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;
  let account: Awaited<ReturnType<typeof newAccount>>;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models);
    ({ page } = await signedInPage(stack, account.accountId));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  const brandsOf = async () => expectSuccess(await call(stack.url, 'GET', '/v2/api/brand/list?perPage=100', { key: account.liveKey })) as BrandOut[];

  it('makes a brand with a logo and colours, edits it and makes it the default', async () => {
    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Brands', exact: true }).click(), /\/v2\/console\/brands$/);
    await screenshot(page, 'brands-list');
    await expectAccessible(page);
    await go(page, () => page.getByRole('link', { name: 'New brand' }).click(), /\/v2\/console\/brands\/new$/);

    await page.getByLabel('Name', { exact: true }).fill('Northwind');
    const logo = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } } }).png().toBuffer();
    await page.getByLabel('Upload a logo').setInputFiles({ name: 'northwind.png', mimeType: 'image/png', buffer: logo });
    // The picker writes the text field (what is sent); typing a colour moves the picker.
    await page.getByLabel('Primary colour: pick').fill('#1478c8');
    expect(await page.getByLabel('Primary colour', { exact: true }).inputValue()).to.equal('#1478c8');
    await page.getByLabel('Accent colour', { exact: true }).fill('#f60');
    expect(await page.getByLabel('Accent colour: pick').inputValue()).to.equal('#ff6600');
    await page.getByLabel('Font').selectOption('humanist');
    await page.getByLabel('Footer text').fill('Northwind Traders, since 1999');
    await screenshot(page, 'brand-new-filled');
    await expectAccessible(page);
    await go(page, () => page.getByRole('button', { name: 'Save the brand' }).click(), /\/v2\/console\/brands\/\d+\?done=saved$/);
    expect(await page.locator('.notice').innerText()).to.equal('The brand is saved.');
    let brand = (await brandsOf()).find((b) => b.name === 'Northwind')!;
    expect(brand).to.deep.include({ primary_color: '#1478c8', accent_color: '#f60', is_default: false });
    expect(brand.logo_url).to.match(/\/media\/[\w-]+\.png$/);
    expect(await page.locator('img.logo-now').getAttribute('src')).to.equal(brand.logo_url);

    expect(await page.locator('iframe.preview-frame').getAttribute('src')).to.equal(`/v2/console/preview/brand/${brand.id}`);
    await screenshot(page, 'brand-editor');
    await expectAccessible(page);
    await atPhoneWidth(page, 'brand-editor');

    // Edit: a new accent colour, made the default.
    // Emptied first: Chromium's fill over a selected value counts the old value against maxlength (7) and kept '#aa'.
    await page.getByLabel('Accent colour', { exact: true }).fill('');
    await page.getByLabel('Accent colour', { exact: true }).fill('#aa00aa');
    await page.getByLabel('Make this the default brand').check();
    await go(page, () => page.getByRole('button', { name: 'Save the brand' }).click(), /done=saved$/);
    brand = (await brandsOf()).find((b) => b.id === brand.id)!;
    expect(brand).to.deep.include({ accent_color: '#aa00aa', is_default: true });
    expect(await page.locator('main').innerText()).to.include('eCards without a brand of their own use this one');

    await go(page, () => page.getByRole('link', { name: 'All brands' }).click(), /\/v2\/console\/brands$/);
    const card = page.locator('.brand-card', { hasText: 'Northwind' });
    expect(await card.locator('.badge').innerText()).to.equal('Default');
    expect(await card.locator('svg rect').first().getAttribute('fill')).to.equal('#1478c8');
    expect(await page.locator('.brand-card .badge').count()).to.equal(1);
    await screenshot(page, 'brands-list-two');
    await expectAccessible(page);
    await atPhoneWidth(page, 'brands-list');
  });

  it('the eCards list: ticks two eCards and hides them through the bulk form', async () => {
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Thank-you cards' });
    const cards = [];
    for (const name of ['Thanks a lot', 'Great work', 'Welcome aboard']) cards.push(await insertEcard(stack.models, account.accountId, widget.id, { name }));
    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'eCards', exact: true }).click(), /\/v2\/console\/ecards$/);
    expect(await page.locator('.ecard-item').count()).to.equal(3);
    // The script shows the one value control the chosen field needs.
    await page.getByLabel('Set', { exact: true }).selectOption({ label: 'Hidden from the gallery' });
    expect(await page.locator('.bulk-value:visible').count()).to.equal(1);
    await screenshot(page, 'ecards-list');
    await expectAccessible(page);
    await page.getByLabel('Select “Thanks a lot”').check();
    // By keyboard: the next eCard’s box ticked with Space.
    await page.getByLabel('Select “Great work”').focus();
    await page.keyboard.press('Space');
    await page.locator('.bulk-value:visible').getByLabel('to', { exact: true }).selectOption('yes');
    await go(page, () => page.getByRole('button', { name: 'Update the selected eCards' }).click(), /done=updated/);
    expect(await page.locator('.notice').innerText()).to.equal('Updated 2 eCards.');
    const state = async (id: number) => (expectSuccess(await call(stack.url, 'GET', `/v2/api/ecard/findOne/id/${id}`, { key: account.liveKey })) as { disabled: boolean }).disabled;
    expect([await state(cards[0]!.id), await state(cards[1]!.id), await state(cards[2]!.id)]).to.deep.equal([true, true, false]);
    expect(await page.locator('.ecard-item', { hasText: 'Great work' }).locator('.badge').innerText()).to.equal('Hidden');
    await screenshot(page, 'ecards-list-updated');
    await atPhoneWidth(page, 'ecards-list');
  });
});
