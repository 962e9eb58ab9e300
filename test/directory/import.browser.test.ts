// The directory import wizard in Chromium: a CSV of 50 members uploaded, its columns mapped (prefilled from the
// header), a dry run showing the counts and the bad row, then applied; the members found through the key API.
// axe-core, 375 px and a screenshot of every step.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { byKeyboard, go, look, signedInPage } from '../helpers/browser.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const counts = (page: Page) => page.locator('.import-counts li').allInnerTexts();

describe('console in a browser: directory import', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;
  let account: Awaited<ReturnType<typeof newAccount>>;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
    ({ page } = await signedInPage(stack, account.accountId));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('imports a CSV of 50 members: upload, mapping, dry run, apply', async () => {
    const lines = ['Email,First name,Last name,Department,Birthday'];
    for (let i = 1; i <= 50; i++) lines.push(`person${i}@example.com,Person,Number ${i},${i % 2 ? 'Sales' : 'Support'},1990-01-${String((i % 28) + 1).padStart(2, '0')}`);
    lines.push('not-an-email,Bad,Row,Sales,1990-01-01');
    await page.goto(`${stack.url}/v2/console/directory/import`);
    await look(page, 'directory-import-upload');
    await page.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
    await go(page, () => page.getByRole('button', { name: 'Continue to the mapping' }).click(), /\/directory\/import\/map$/);

    expect(await page.getByText('51 rows read').count()).to.equal(1);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).to.equal('email');
    expect(await page.getByLabel('Department').inputValue()).to.equal('departments');
    expect(await page.getByLabel('Birthday').inputValue()).to.equal('date_of_birth');
    await look(page, 'directory-import-map');

    await go(page, () => page.getByRole('button', { name: 'Dry run', exact: true }).click(), /\/directory\/import\/dry-run$/);
    expect(await counts(page)).to.deep.equal(['50\nto create', '0\nto update', '0\nunchanged', '1\nwith errors']);
    expect(await page.locator('.import-problems tbody tr').innerText()).to.match(/^52\s+email: expected an email address$/);
    const listed = async () => expectSuccess(await call(stack.url, 'GET', '/v2/api/pub/team-member-actions/list?perPage=100', { key: account.liveKey })) as Array<{ email: string; departments: string[] }>;
    expect(await listed()).to.deep.equal([]);
    await look(page, 'directory-import-dry-run');

    await go(page, () => page.getByRole('button', { name: 'Apply the import' }).click(), /\/directory\/import\/done\?/);
    expect(await counts(page)).to.deep.equal(['50\ncreated', '0\nupdated', '0\nunchanged', '1\nskipped']);
    expect(await page.getByRole('link', { name: 'See the members' }).getAttribute('href')).to.equal('/v2/console/directory');
    await look(page, 'directory-import-done');

    // The members in the table: the result page's link followed by keyboard, then a search for one of them.
    await go(page, () => byKeyboard(page, page.getByRole('link', { name: 'See the members' })), /\/v2\/console\/directory\/members$/);
    await page.getByLabel('Search', { exact: true }).fill('person7@');
    await go(page, () => byKeyboard(page, page.getByRole('button', { name: 'Search' })), /\?q=person7/);
    expect(await page.locator('table tbody tr').allInnerTexts()).to.have.length(1).and.satisfy((rows: string[]) => rows[0]!.includes('person7@example.com'));
    const members = await listed();
    expect(members).to.have.length(50);
    expect(members.find((m) => m.email === 'person7@example.com')).to.deep.include({ departments: ['Sales'] });
  });
});
