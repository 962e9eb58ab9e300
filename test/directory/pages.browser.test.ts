// The directory in Chromium: a member added through the editor, found by a name prefix, edited, deactivated and
// reactivated, then erased through the confirmation page, and checked gone through the key API; the departments
// page. axe-core, 375 px, a screenshot of every page.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { addCustomField } from '../../services/directory/custom-fields.ts';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { byKeyboard, go, look, signedInPage } from '../helpers/browser.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console in a browser: directory', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;
  let account: Awaited<ReturnType<typeof newAccount>>;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models);
    await addCustomField(stack, { accountId: account.accountId, key: 'anniversary', label: 'Work anniversary', required: false });
    for (const [first, last, dept] of [['Marie', 'Curie', 'Research'], ['Alan', 'Turing', 'Research'], ['Katherine', 'Johnson', 'Flight']]) {
      expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email: `${first!.toLowerCase()}@example.com`, first_name: first, last_name: last, job_position: 'Scientist', departments: [dept], hire_date: '2019-04-01' } }));
    }
    ({ page } = await signedInPage(stack, account.accountId));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  const find = async (email: string) => expectSuccess(await call(stack.url, 'GET', `/v2/api/pub/team-member-actions/find?email=${encodeURIComponent(email)}`, { key: account.liveKey })) as Record<string, unknown>;

  it('adds a member through the editor, finds them by a name prefix, edits, deactivates and reactivates them', async () => {
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    await go(page, () => nav.getByRole('link', { name: 'Directory', exact: true }).click(), /\/v2\/console\/directory\/members$/);
    expect(await page.locator('table.members tbody tr').count()).to.equal(3);
    await look(page, 'directory-members');

    await go(page, () => page.getByRole('link', { name: 'Add a member' }).click(), /\/members\/new$/);
    await page.getByLabel('Email (required)').fill('not an email');
    await page.getByLabel('First name').fill('Ada');
    await go(page, () => page.getByRole('button', { name: 'Add the member' }).click(), /\/members$/);
    // The reason beside the field, the typed values kept.
    expect(await page.locator('.field-error').first().innerText()).to.equal('Expected an email address');
    expect(await page.getByLabel('First name').inputValue()).to.equal('Ada');
    await look(page, 'directory-member-invalid');

    await page.getByLabel('Email (required)').fill('ada@example.com');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Departments').fill('Research, Analytical engines');
    await page.getByLabel('Hire date').fill('2021-06-15');
    await page.getByLabel('Work anniversary').fill('2022-06-15');
    await page.getByLabel('Time zone').selectOption('Europe/London');
    await go(page, () => page.getByRole('button', { name: 'Add the member' }).click(), /\/members\/\d+\?done=created$/);
    expect(await page.locator('.notice').innerText()).to.equal('The member is added.');
    await look(page, 'directory-member');

    await go(page, () => page.getByRole('link', { name: 'All members' }).click(), /\/members$/);
    await page.getByLabel('Search').fill('Lov');
    await go(page, () => byKeyboard(page, page.getByRole('button', { name: 'Search' })), /\?q=Lov/);
    const rows = page.locator('table.members tbody tr');
    expect(await rows.count()).to.equal(1);
    expect(await rows.first().innerText()).to.include('Ada Lovelace').and.include('ada@example.com').and.include('Analytical engines, Research');
    await go(page, () => page.getByRole('link', { name: 'Ada Lovelace' }).click(), /\/members\/\d+$/);

    await page.getByLabel('Job position').fill('Analyst');
    await go(page, () => page.getByRole('button', { name: 'Save the member' }).click(), /done=saved$/);
    expect(await find('ada@example.com')).to.deep.include({ job_position: 'Analyst', timezone: 'Europe/London', custom_fields: { anniversary: '2022-06-15' } });

    await go(page, () => page.getByRole('button', { name: 'Deactivate' }).click(), /done=deactivated$/);
    expect(await find('ada@example.com')).to.have.property('disabled', 1);
    expect(await page.locator('.member-status .badge').innerText()).to.equal('Deactivated');
    await go(page, () => page.getByRole('button', { name: 'Reactivate' }).click(), /done=reactivated$/);
    expect(await find('ada@example.com')).to.have.property('disabled', 0);
  });

  it('erases a member through the confirmation page; the key API finds nothing; departments show their counts', async () => {
    await page.goto(`${stack.url}/v2/console/directory/members?q=alan`);
    await go(page, () => page.getByRole('link', { name: 'Alan Turing' }).click(), /\/members\/\d+$/);
    await go(page, () => page.getByRole('link', { name: 'Erase this member…' }).click(), /\/erase$/);
    expect(await page.locator('.erase-confirm').innerText()).to.include('alan@example.com').and.include('Research').and.include('recipient data');
    await look(page, 'directory-erase');
    await go(page, () => page.getByRole('button', { name: 'Erase Alan Turing for good' }).click(), /\/members\?done=erased$/);
    expect(await page.locator('.notice').innerText()).to.include('The member is erased');
    expect(await find('alan@example.com')).to.deep.equal({});
    expect(await page.locator('table.members').innerText()).not.to.include('Alan');

    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Departments' }).click(), /\/directory\/departments$/);
    expect(await page.locator('table.departments').innerText()).to.match(/Research\s+2 members/);
    await look(page, 'directory-departments');
  });
});
