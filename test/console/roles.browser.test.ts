// A designer in Chromium: their navigation (no directory, rewards or keys), followed by keyboard, the 403 page a
// refused section answers inside the console's layout, and their Sessions page ending another session by keyboard;
// axe-core clean, at 375 px, a screenshot of each.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newAccount } from '../helpers/api.ts';
import { byKeyboard, look, newPage } from '../helpers/browser.ts';
import { OWNER_PASSWORD, signedInMember } from '../helpers/console.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console roles in a browser: a designer’s console', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;

  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    const account = await newAccount(stack.models, 'pro');
    const designer = await signedInMember(stack, account, 'designer');
    ({ page } = await newPage());
    await page.goto(`${stack.url}/v2/console/sign-in`);
    await page.getByLabel('Email').fill(designer.user.email);
    await page.getByLabel('Password').fill(OWNER_PASSWORD);
    await Promise.all([page.waitForURL(`${stack.url}/v2/console/`), page.getByRole('button', { name: 'Sign in' }).click()]);
  });

  it('the navigation shows the design sections and none of the others, and is followed by keyboard', async () => {
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    for (const name of ['Widgets', 'eCards', 'Brands', 'Sends']) expect(await nav.getByRole('link', { name, exact: true }).count(), name).to.equal(1);
    for (const name of ['Directory', 'Members', 'Rewards', 'API keys', 'Webhooks', 'Send a card']) expect(await nav.getByRole('link', { name, exact: true }).count(), name).to.equal(0);
    await look(page, 'console-designer-home');
    await byKeyboard(page, nav.getByRole('link', { name: 'Brands', exact: true }));
    await page.waitForURL(`${stack.url}/v2/console/brands`);
  });

  it('a section the role may not open is a 403 page inside the console, saying why', async () => {
    const res = await page.goto(`${stack.url}/v2/console/directory/members`);
    expect(res?.status()).to.equal(403);
    expect(await page.getByRole('heading', { name: 'Not available to your role' }).count()).to.equal(1);
    expect(await page.getByText('Your role (designer) does not allow this: it needs directory: view').count()).to.equal(1);
    expect(await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Widgets', exact: true }).count()).to.equal(1);
    await look(page, 'console-role-refused');
  });

  it('the Sessions page lists this browser and the other sign-ins, and ends one by keyboard', async () => {
    await page.goto(`${stack.url}/v2/console/profile/sessions`);
    expect(await page.getByText('This session').count()).to.equal(1);
    // The helper's two sign-ins (the console API's and the pages') besides this browser's.
    const ends = page.getByRole('button', { name: /^End the session from/ });
    expect(await ends.count()).to.equal(2);
    await look(page, 'console-sessions');
    await page.getByRole('heading', { name: 'Sessions' }).click();
    await byKeyboard(page, ends.first());
    await page.waitForURL(`${stack.url}/v2/console/profile/sessions?ended=one`);
    expect(await page.getByText('The session was ended.').count()).to.equal(1);
    expect(await page.getByRole('button', { name: /^End the session from/ }).count()).to.equal(1);
  });
});
