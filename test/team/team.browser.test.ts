// The Team page in Chromium: the owner sees the people with their roles, changes one from the keyboard, makes an
// admin after the password again, removes a member, switches to another account from the header; axe-core clean,
// at 375 px, a screenshot of each.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { byKeyboard, look, signedInPage } from '../helpers/browser.ts';
import { ownerUser, signedInMember } from '../helpers/console.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('the Team page in a browser', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let account: TestAccount;
  let page: Page;
  let password: string;
  let designer: { id: number; email: string };

  const roleOf = async (userId: number) => (await stack.models.Membership.findOne({ where: { account_id: account.accountId, user_id: userId } }))?.role ?? null;

  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
    const member = await signedInMember(stack, account, 'designer');
    designer = { id: member.user.id, email: member.user.email };
    await signedInMember(stack, account, 'viewer');
    ({ page, password } = await signedInPage(stack, account.accountId));
  });

  it('lists the people with their roles; the owner’s own row has no forms', async () => {
    await page.goto(`${stack.url}/v2/console/settings/team`);
    const rows = page.locator('.team-table tbody tr');
    expect(await rows.count()).to.equal(3);
    expect(await rows.first().innerText()).to.match(/You[\s\S]*owner/);
    expect(await rows.first().locator('form').count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Team' }).getAttribute('aria-current')).to.equal('page');
    await look(page, 'console-team');
  });

  it('changes a role from the keyboard', async () => {
    const select = page.getByLabel(`Role of ${designer.email}`);
    await select.focus();
    await select.selectOption('sender');
    await Promise.all([page.waitForURL(/done=role/), byKeyboard(page, page.getByRole('button', { name: `Change the role of ${designer.email}` }))]);
    expect(await page.getByRole('status').innerText()).to.include('The role was changed');
    expect(await roleOf(designer.id)).to.equal('sender');
    expect(await page.getByLabel(`Role of ${designer.email}`).inputValue()).to.equal('sender');
  });

  it('making an admin asks for the password again, then the change is made', async () => {
    await page.getByLabel(`Role of ${designer.email}`).selectOption('admin');
    await Promise.all([page.waitForURL((url) => url.pathname === '/v2/console/step-up'), page.getByRole('button', { name: `Change the role of ${designer.email}` }).click()]);
    expect(await roleOf(designer.id)).to.equal('sender');
    await page.getByLabel('Password').fill(password);
    await Promise.all([page.waitForURL((url) => url.pathname === '/v2/console/settings/team'), page.getByRole('button', { name: 'Continue' }).click()]);
    await page.getByLabel(`Role of ${designer.email}`).selectOption('admin');
    await Promise.all([page.waitForURL(/done=role/), page.getByRole('button', { name: `Change the role of ${designer.email}` }).click()]);
    expect(await roleOf(designer.id)).to.equal('admin');
  });

  it('a person in two accounts switches from the header, by keyboard', async () => {
    const other = await newAccount(stack.models);
    const owner = await ownerUser(stack.models, account.accountId);
    await stack.models.Membership.create({ account_id: other.accountId, user_id: owner.id, role: 'viewer' });
    await page.goto(`${stack.url}/v2/console/settings/team`);
    const select = page.getByLabel('Account to manage');
    expect(await select.locator('option').allTextContents()).to.have.length(2);
    await look(page, 'console-switch-account');
    await select.focus();
    await select.selectOption(String(other.accountId));
    await Promise.all([page.waitForURL(`${stack.url}/v2/console/`), byKeyboard(page, page.getByRole('button', { name: 'Switch account' }))]);
    const name = (await stack.models.Account.findByPk(other.accountId, { rejectOnEmpty: true })).name;
    expect(await page.locator('.who strong').innerText()).to.equal(name);
    // A viewer there: no Team in the navigation.
    expect(await page.getByRole('link', { name: 'Team', exact: true }).count()).to.equal(0);
    await page.getByLabel('Account to manage').selectOption(String(account.accountId));
    await Promise.all([page.waitForURL(`${stack.url}/v2/console/`), page.getByRole('button', { name: 'Switch account' }).click()]);
    await page.goto(`${stack.url}/v2/console/settings/team`);
  });

  it('removes a member', async () => {
    await Promise.all([page.waitForURL(/done=removed/), page.getByRole('button', { name: `Remove ${designer.email}` }).click()]);
    expect(await roleOf(designer.id)).to.equal(null);
    expect(await page.locator('.team-table tbody tr').count()).to.equal(2);
    expect(await page.getByRole('status').innerText()).to.include('removed');
    await look(page, 'console-team-removed');
  });
});
