// "Time and quiet hours" in Chromium: reached from the Settings navigation, a zone picked and quiet hours across
// midnight saved by keyboard, read back through the key API; axe-core, 375 px, screenshots.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { byKeyboard, go, look, signedInPage } from '../helpers/browser.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console in a browser: time and quiet hours', function () {
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

  it('picks a default zone and quiet hours across midnight, saves by keyboard, and the key API answers them', async () => {
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    await go(page, () => nav.getByRole('link', { name: 'Time and quiet hours' }).click(), /\/v2\/console\/local-time$/);
    expect(await page.getByLabel('Default time zone').inputValue()).to.equal('UTC');
    await look(page, 'local-time');

    await page.getByLabel('Default time zone').selectOption('America/Chicago');
    await page.getByLabel('Hold campaign and automation cards during quiet hours').check();
    await page.getByLabel('From').fill('22:00');
    await page.getByLabel('Until').fill('07:00');
    await page.getByLabel('Until').focus();
    await go(page, () => byKeyboard(page, page.getByRole('button', { name: 'Save the settings' })), /\?done=saved$/);
    expect(await page.locator('.notice').innerText()).to.equal('The settings are saved.');
    expect(await page.getByLabel('Default time zone').inputValue()).to.equal('America/Chicago');
    expect(await page.getByLabel('Hold campaign and automation cards during quiet hours').isChecked()).to.equal(true);
    expect(expectSuccess(await call(stack.url, 'GET', '/v2/api/account/settings', { key: account.liveKey }))).to.deep.equal({ default_timezone: 'America/Chicago', quiet_hours: { start: '22:00', end: '07:00' } });

    // The same time twice: the reason beside the quiet hours, nothing saved.
    await page.getByLabel('Until').fill('22:00');
    await go(page, () => page.getByRole('button', { name: 'Save the settings' }).click(), /\/local-time$/);
    expect(await page.locator('#quiet-error').innerText()).to.include('start and end at the same time');
    await look(page, 'local-time-invalid');
  });
});
