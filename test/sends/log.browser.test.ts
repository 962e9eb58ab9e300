// The Send page and the sends log in Chromium: a card sent from the Send page (a recipient row added by the page's
// script) arrives by email; the send found in the log by its recipient's email and opened; the CSV export
// downloaded through the log's link and parsed. axe-core, 375 px, screenshots of every page.
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newAccount } from '../helpers/api.ts';
import { atPhoneWidth, byKeyboard, expectAccessible, go, screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

/** RFC 4180 lines as a spreadsheet reads them (quoted cells with doubled quotes and commas). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += c;
  }
  return rows;
}

describe('console in a browser: send a card, the sends log, its export', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;
  const tag = `b${Date.now()}`;
  const to = `ada-${tag}@example.com`;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    const account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Team thanks' });
    await insertEcard(stack.models, account.accountId, widget.id, { name: 'Great work' });
    ({ page } = await signedInPage(stack, account.accountId));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('sends a card from the Send page; it arrives by email', async () => {
    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Send a card', exact: true }).click(), /\/v2\/console\/send$/);
    await page.getByLabel('eCard').selectOption({ label: 'Great work' });
    await page.getByLabel('Personal message').fill('Thank you for the launch, Ada!');
    await page.getByLabel('Name 1', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Email 1', { exact: true }).fill(to);
    // The page's script adds a row in place (without JavaScript the button posts for more rows).
    await page.getByRole('button', { name: 'Add a recipient' }).click();
    expect(await page.getByLabel('Name 4', { exact: true }).evaluate((el) => el === el.ownerDocument.activeElement)).to.equal(true);
    await page.getByLabel('Name 4', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('Email 4', { exact: true }).fill(`grace-${tag}@example.com`);
    expect(await page.getByLabel('Time zone').inputValue()).to.not.equal('');
    await screenshot(page, 'send-form');
    await expectAccessible(page);
    await atPhoneWidth(page, 'send-form');

    await go(page, () => page.getByRole('button', { name: 'Send the card' }).click(), /\/v2\/console\/send\/sent\/[0-9a-f-]{36}\?tz=/);
    expect(await page.locator('h1').innerText()).to.equal('Card sent');
    expect(await page.locator('main').innerText()).to.include('went out in 2 email(s)');
    const mail = await eventually(async () => (await testSmtpServer()).to(to), (m) => m.length > 0, 15_000);
    expect(mail[0]!.html).to.include('Thank you for the launch, Ada!');
    await screenshot(page, 'send-done');
    await expectAccessible(page);
    await atPhoneWidth(page, 'send-done');
  });

  it('finds the send by its recipient’s email in the log and opens its page', async () => {
    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Sends', exact: true }).click(), /\/v2\/console\/sends$/);
    await page.getByLabel('Recipient email (exact)').fill(`GRACE-${tag}@example.com`);
    await go(page, () => byKeyboard(page, page.getByRole('button', { name: 'Filter' })), /recipientEmail=/);
    const rows = page.locator('.sends-table tbody tr');
    expect(await rows.count()).to.equal(1);
    expect(await rows.first().innerText()).to.include(to).and.include('+1 more').and.include('Great work');
    await screenshot(page, 'sends-log');
    await expectAccessible(page);
    await atPhoneWidth(page, 'sends-log');

    await go(page, () => rows.first().getByRole('link').click(), /\/v2\/console\/sends\/[0-9a-f-]{36}$/);
    const recipients = page.locator('table').first().locator('tbody tr');
    expect(await recipients.count()).to.equal(2);
    expect((await recipients.nth(1).innerText()).toLowerCase()).to.include('grace hopper').and.include('sent').and.include('not opened');
    await screenshot(page, 'send-page');
    await expectAccessible(page);
    await atPhoneWidth(page, 'send-page');
  });

  it('downloads the CSV export through the log’s link and parses it', async () => {
    await page.goto(`${stack.url}/v2/console/sends?status=sent`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).to.match(/^sends-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile(await download.path());
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const [header, ...lines] = parseCsv(bytes.subarray(3).toString('utf8'));
    const at = (name: string) => header!.indexOf(name);
    expect(lines.map((l) => l[at('recipient_email')])).to.deep.equal([to, `grace-${tag}@example.com`]);
    expect(lines.map((l) => l[at('recipient_name')])).to.deep.equal(['Ada Lovelace', 'Grace Hopper']);
    expect(lines.every((l) => l[at('ecard_name')] === 'Great work' && l[at('status')] === 'sent')).to.equal(true);
  });
});
