// The browser for console tests: Debian's Chromium driven by playwright-core (one browser per run, a new context per
// test), a screenshot of every page into the git-ignored test-artifacts/, and axe-core's check of a page (no serious
// or critical violation). Browser flows run on SQLite only (the suite's MariaDB run skips them).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { packageRoot } from '../../lib/paths.ts';
import type { Models } from '../../models/index.ts';
import { onFileEnd, onSuiteEnd } from './cleanup.ts';
import { setOwnerPassword } from './console.ts';

// Debian's old headless shell when installed (.ci/run installs it): the same Blink without the browser's own UI, about
// a third less CPU for the same pages (its processes shared the cores with CI's other lanes); else the full browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
export const artifacts = join(packageRoot, 'test-artifacts');

let browser: Promise<Browser> | undefined;

function testBrowser(): Promise<Browser> {
  browser ??= (async () => {
    // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start.
    const launched = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    onSuiteEnd(() => launched.close());
    return launched;
  })();
  return browser;
}

/**
 * A new context and page. `bypassCSP` (the default) lets axe-core's script in (the pages allow no inline script);
 * the CSP itself is checked over HTTP. `{ bypassCSP: false }` runs the pages under their CSP (the eCard editor's Trix
 * under its style nonce); axe then runs in another context (see expectAccessibleElsewhere).
 */
export async function newPage(options: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await (await testBrowser()).newContext({ bypassCSP: options.bypassCSP ?? true });
  onFileEnd(() => context.close());
  return { context, page: await context.newPage() };
}

/**
 * Waits for the page's finite animations to end: axe-core measures colour contrast on what is painted, and an element
 * still fading in (the card page's card after its envelope opens) is not what a reader reads.
 */
export const animationsDone = (page: Page) =>
  page.evaluate<void>('Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))).then(() => undefined)');

let shots = 0;

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await animationsDone(page);
  await page.screenshot({ path: join(artifacts, `${String(++shots).padStart(3, '0')}-${name.replace(/[^a-z0-9-]+/gi, '-')}.png`), fullPage: true });
}

interface AxeResults {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown }> }>;
}

/** axe-core on the page as it is, once its animations have ended: no serious or critical violation (each named with its elements). */
export async function expectAccessible(page: Page): Promise<void> {
  await animationsDone(page);
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(async () => (globalThis as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run());
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`), page.url()).to.deep.equal([]);
}

/** axe-core on a page of a context that enforces the CSP: the same URL, loaded in a new bypassCSP context with its cookies. */
export async function expectAccessibleElsewhere(context: BrowserContext, url: string): Promise<void> {
  const other = await newPage();
  await other.context.addCookies(await context.cookies());
  await other.page.goto(url);
  await expectAccessible(other.page);
  await other.context.close();
}

/** True when the page fits the window's width (nothing scrolls sideways). */
export const fitsWidth = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

/** Clicks what submits a form or follows a link and waits for the page it lands on. */
export async function go(page: Page, click: () => Promise<void>, url: RegExp): Promise<void> {
  await Promise.all([page.waitForURL(url), click()]);
}

/** The page at a phone's width: it fits, and a screenshot of it; then back to the desktop width. */
export async function atPhoneWidth(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await fitsWidth(page), `${name} at 375 px`).to.equal(true);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Reaches `target` with the Tab key from where the focus is (at most 100 presses), checks its focus is visible (an
 * outline or a box shadow), and presses Enter on it: what a keyboard user does to follow a link or submit a form.
 */
export async function byKeyboard(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses <= 100; presses++) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) {
      const ring = await page.evaluate<string>('(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle !== "none" && s.outlineWidth !== "0px" ? "outline" : s.boxShadow; })()');
      expect(ring, 'a visible focus ring').to.not.equal('none');
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('Tab');
  }
  expect.fail(`${String(target)} was not reached with 100 presses of Tab`);
}

/** A screenshot, axe-core clean, and at a phone's width it fits (a screenshot of that too). */
export async function look(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await expectAccessible(page);
  await atPhoneWidth(page, name);
}

/** A new context signed in as the account's owner through the sign-in form (a password is set first). */
export async function signedInPage(
  stack: { url: string; models: Models },
  accountId: number,
  password = 'correct horse battery',
  options: { bypassCSP?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; email: string; password: string }> {
  const email = await setOwnerPassword(stack.models, accountId, password);
  const { context, page } = await newPage(options);
  await page.goto(`${stack.url}/v2/console/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(`${stack.url}/v2/console/`), page.getByRole('button', { name: 'Sign in' }).click()]);
  return { context, page, email, password };
}
