// The console's shell and look in a browser: every page the navigation reaches passes axe-core and fits a phone,
// the compact menu works by keyboard without JavaScript, focus is visible, dark mode follows the system, and the
// account's default brand's accent colours the buttons with readable text and links.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { call, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { expectAccessible, screenshot, signedInPage, fitsWidth } from '../helpers/browser.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { resolveBrand } from '../../services/brands/brands.ts';
import { addCustomField } from '../../services/directory/custom-fields.ts';
import { addSuppression } from '../../services/sends/accept/rules.ts';

/** A computed style property of the first element matching `selector` (or of the focused element). */
const style = (page: Page, selector: string, property: string) =>
  page.evaluate<string>(`getComputedStyle(${selector === ':focus' ? 'document.activeElement' : `document.querySelector(${JSON.stringify(selector)})`}).${property}`);

/** The focused element's tag and text. */
const focused = (page: Page) => page.evaluate<string>("`${document.activeElement.tagName} ${document.activeElement.textContent.trim()}`");

// WCAG contrast of two computed `rgb(r, g, b)` colours, computed here apart from the code under test.
function luminance(rgb: string): number {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((c) => {
    const s = Number(c) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
};

const nav = (page: Page) => page.getByRole('navigation', { name: 'Console sections' });

describe('console look in a browser: shell, navigation, dark mode, brand accent', function () {
  this.timeout(180_000);
  let stack: TestStack;
  let account: TestAccount;
  let page: Page;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
    // Rows in a few tables, so the phone check covers a table's frame, not only empty states.
    await addCustomField(stack, { accountId: account.accountId, key: 'work_anniversary', label: 'Work anniversary', required: false });
    await addSuppression(stack.services, account.accountId, 'email', 'someone.with.a.rather.long.address@subdomain.example.com');
    ({ page } = await signedInPage(stack, account.accountId));
  });

  it('every page the navigation reaches: axe-core clean, and at 375 px nothing scrolls sideways', async () => {
    const links = await nav(page).getByRole('link').evaluateAll((as) => as.map((a) => ({ href: (a as unknown as { href: string }).href, label: (a as unknown as { textContent: string }).textContent })));
    const unique = [...new Map(links.map((l) => [l.href, l])).values()];
    const answered: string[] = [];
    for (const { href, label } of unique) {
      await page.setViewportSize({ width: 1280, height: 800 });
      const res = await page.goto(href);
      // Sections still being built elsewhere (Widgets, eCards, Brands) answer 404 until they land.
      if (res?.status() !== 200) continue;
      answered.push(label);
      const link = nav(page).getByRole('link', { name: label, exact: true }).first();
      expect(await link.getAttribute('aria-current')).to.equal('page');
      // The sidebar scrolls on its own when the screen is short: the current section is in its view.
      const inView = await link.evaluate((a) => {
        type Box = { top: number; bottom: number };
        const el = a as unknown as { getBoundingClientRect(): Box; closest(selector: string): { getBoundingClientRect(): Box } };
        const [box, frame] = [el.getBoundingClientRect(), el.closest('.sidebar-inner').getBoundingClientRect()];
        return box.top >= frame.top && box.bottom <= Math.min(frame.bottom, (globalThis as unknown as { innerHeight: number }).innerHeight);
      });
      expect(inView, `${label}: its link in the sidebar's view`).to.equal(true);
      await screenshot(page, `look-${label}-desktop`);
      await expectAccessible(page);
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await fitsWidth(page), `${label} at 375 px`).to.equal(true);
      await screenshot(page, `look-${label}-375`);
    }
    expect(answered).to.include.members(['Home', 'Rewards', 'API keys', 'Confirmation tokens', 'Webhooks', 'Custom fields', 'Members', 'Departments', 'Outbox', 'Password']);
  });

  it('at 375 px the navigation hides behind a Menu that opens by keyboard, without JavaScript', async () => {
    const { context, page: phone } = await signedInPage(stack, account.accountId);
    await phone.close();
    const noScript = await context.browser()!.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 740 }, storageState: await context.storageState() });
    const small = await noScript.newPage();
    try {
      await small.goto(`${stack.url}/v2/console/`);
      const keys = nav(small).getByRole('link', { name: 'API keys' });
      expect(await keys.isVisible()).to.equal(false);
      await small.keyboard.press('Tab');
      expect(await focused(small)).to.equal('A Skip to the content');
      await small.keyboard.press('Tab');
      expect(await small.evaluate<string>('document.activeElement.id')).to.equal('menu-toggle');
      expect(await style(small, '.menu-button', 'outlineStyle')).to.equal('solid');
      await small.keyboard.press('Space');
      expect(await keys.isVisible()).to.equal(true);
      await small.keyboard.press('Tab');
      expect(await focused(small)).to.equal('A Home');
      expect(await fitsWidth(small)).to.equal(true);
      await screenshot(small, 'look-menu-open-375');
      await Promise.all([small.waitForURL(/\/v2\/console\/webhooks$/), nav(small).getByRole('link', { name: 'Webhooks' }).click()]);
    } finally {
      await noScript.close();
    }
  });

  it('keyboard on a wide screen: the skip link first, then the navigation, each with a visible outline', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${stack.url}/v2/console/`);
    await page.keyboard.press('Tab');
    expect(await focused(page)).to.equal('A Skip to the content');
    expect(await style(page, ':focus', 'outlineStyle')).to.equal('solid');
    expect(await page.getByRole('link', { name: 'Skip to the content' }).isVisible()).to.equal(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).to.equal('A Home');
    expect(await style(page, ':focus', 'outlineStyle')).to.equal('solid');
    expect(parseFloat(await style(page, ':focus', 'outlineWidth'))).to.be.at.least(2);
    // The ring reads against the sidebar (3:1 for a focus indicator).
    expect(contrast(await style(page, ':focus', 'outlineColor'), await style(page, '.sidebar', 'backgroundColor'))).to.be.at.least(3);
  });

  it('dark mode follows the system, still axe-core clean', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      for (const path of ['/v2/console/', '/v2/console/rewards']) {
        await page.goto(`${stack.url}${path}`);
        expect(luminance(await style(page, 'body', 'backgroundColor'))).to.be.below(0.05);
        await screenshot(page, `look-dark-${path.split('/').at(-1) || 'home'}`);
        await expectAccessible(page);
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('the default brand\'s accent colours the primary buttons; a light accent gets dark text and darker links', async () => {
    const brand = await resolveBrand(stack, account.accountId, null);
    const { key } = await newKey(stack.models, account.accountId, { brands: 'manage' });
    const setAccent = async (accent: string) => expectSuccess(await call(stack.url, 'POST', '/v2/api/brand/save', { key, body: { brand: { id: brand!.id, accent_color: accent } } }));

    await setAccent('#0b7a3e');
    await page.goto(`${stack.url}/v2/console/password`);
    const button = 'main button[type="submit"]';
    expect(await style(page, button, 'backgroundColor')).to.equal('rgb(11, 122, 62)');
    expect(await style(page, button, 'color')).to.equal('rgb(255, 255, 255)');
    await screenshot(page, 'look-accent-green');

    await setAccent('#ffe066');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${stack.url}/v2/console/`);
      await page.goto(`${stack.url}/v2/console/password`);
      expect(await style(page, button, 'backgroundColor')).to.equal('rgb(255, 224, 102)');
      const text = await style(page, button, 'color');
      expect(contrast(text, 'rgb(255, 224, 102)'), scheme).to.be.at.least(4.5);
      expect(luminance(text)).to.be.below(0.05);
      await page.goto(`${stack.url}/v2/console/`);
      const link = await style(page, '.tile-title', 'color');
      expect(contrast(link, await style(page, '.tile', 'backgroundColor')), `${scheme} link`).to.be.at.least(4.5);
      await screenshot(page, `look-accent-yellow-${scheme}`);
      await expectAccessible(page);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
