// The browser for console tests: Debian's Chromium driven by playwright-core (one browser per run, a new context per
// test), a screenshot of every page into the git-ignored test-artifacts/, and axe-core's check of a page (no serious
// or critical violation). Browser flows run on SQLite only (the suite's MariaDB run skips them).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { packageRoot } from '../../lib/paths.ts';
import type { Models } from '../../models/index.ts';
import { onSuiteEnd } from './cleanup.ts';
import { setOwnerPassword } from './console.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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

export async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP lets axe-core's script in (the pages allow no inline script); the CSP itself is checked over HTTP.
  const context = await (await testBrowser()).newContext({ bypassCSP: true });
  onSuiteEnd(() => context.close());
  return { context, page: await context.newPage() };
}

let shots = 0;

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${String(++shots).padStart(3, '0')}-${name.replace(/[^a-z0-9-]+/gi, '-')}.png`), fullPage: true });
}

interface AxeResults {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown }> }>;
}

/** axe-core on the page as it is: no serious or critical violation (each named with its elements). */
export async function expectAccessible(page: Page): Promise<void> {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(async () => (globalThis as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run());
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`), page.url()).to.deep.equal([]);
}

/** A new context signed in as the account's owner through the sign-in form (a password is set first). */
export async function signedInPage(stack: { url: string; models: Models }, accountId: number, password = 'correct horse battery'): Promise<{ context: BrowserContext; page: Page; email: string; password: string }> {
  const email = await setOwnerPassword(stack.models, accountId, password);
  const { context, page } = await newPage();
  await page.goto(`${stack.url}/v2/console/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(`${stack.url}/v2/console/`), page.getByRole('button', { name: 'Sign in' }).click()]);
  return { context, page, email, password };
}
