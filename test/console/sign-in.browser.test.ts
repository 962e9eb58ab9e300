import { expect } from 'chai';
import { newAccount } from '../helpers/api.ts';
import { expectAccessible, newPage, screenshot } from '../helpers/browser.ts';
import { setOwnerPassword } from '../helpers/console.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console in a browser: sign-in', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async function () {
    // Browser flows run once, on SQLite (the MariaDB run checks the same pages through their API tests).
    if (mysqlUrl) this.skip();
    stack = await testStack();
  });

  it('signs in by keyboard alone and lands on the console; both pages pass axe-core', async () => {
    const account = await newAccount(stack.models);
    const email = await setOwnerPassword(stack.models, account.accountId, 'correct horse battery');
    const { page } = await newPage();
    await page.goto(`${stack.url}/v2/console/`);
    expect(new URL(page.url()).pathname).to.equal('/v2/console/sign-in');
    await screenshot(page, 'sign-in');
    await expectAccessible(page);
    // Tab order: the skip link, then email, password, the button.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').getAttribute('id')).to.equal('email');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct horse battery');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/v2/console/`);
    expect(await page.textContent('main')).to.include(email);
    await screenshot(page, 'home');
    await expectAccessible(page);
  });
});
