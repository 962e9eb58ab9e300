// The automation pages in Chromium (SQLite pass): the scenario as an owner: a birthday automation made from
// the type chooser, a directory member whose birthday is tomorrow seen on the forecast calendar, enabling refused
// with the messages beside the fields, then enabled. axe-core, 375 px, screenshots of every page.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { atPhoneWidth, byKeyboard, expectAccessible, go, screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

describe('console in a browser: automations', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;
  let account: Awaited<ReturnType<typeof newAccount>>;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models);
    const widget = await insertWidget(stack.models, account.accountId);
    await insertEcard(stack.models, account.accountId, widget.id, { name: 'Balloons' });
    ({ page } = await signedInPage(stack, account.accountId));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('creates a birthday automation, sees a member due tomorrow on the calendar, and enables it', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000);
    const dob = `1988-${tomorrow.toISOString().slice(5, 10)}`;
    expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', date_of_birth: dob } }));

    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Automations', exact: true }).click(), /\/v2\/console\/automations$/);
    await screenshot(page, 'automations-empty');
    await expectAccessible(page);
    await go(page, () => page.getByRole('link', { name: 'New automation' }).click(), /\/automations\/new$/);
    await screenshot(page, 'automation-types');
    await expectAccessible(page);
    await go(page, () => page.getByRole('link', { name: 'Birthday', exact: true }).click(), /\/automations\/new\?type=birthday$/);

    await page.getByLabel('Name', { exact: true }).fill('Birthdays');
    await page.getByLabel('Send time').fill('09:00');
    // The shared time-zone picker (a list of every zone), UTC picked.
    expect(await page.locator('select#timezone').count()).to.equal(1);
    await page.getByLabel('Time zone').selectOption('UTC');
    expect(await page.getByLabel('Send at each person’s local time').isChecked()).to.equal(false);
    await expectAccessible(page);
    await go(page, () => byKeyboard(page, page.getByRole('button', { name: 'Create the automation' })), /\/automations\/\d+\?done=saved$/);
    expect(await page.locator('.notice').innerText()).to.equal('The automation is saved.');

    // The calendar: Grace on tomorrow's day.
    const day = page.locator(`.calendar time[datetime="${tomorrow.toISOString().slice(0, 10)}"]`).locator('..');
    expect(await day.innerText()).to.include('Grace Hopper');
    expect(await page.locator('.calendar > li').count()).to.equal(30);
    expect(await day.locator('time').innerText()).to.include(`${tomorrow.getUTCDate()} ${MONTHS[tomorrow.getUTCMonth()]!}`);

    // Enabling without an eCard or a reply-to address: refused, each message beside its field.
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.locator('#from_email-error').waitFor();
    expect(await page.locator('#ecards-error').innerText()).to.match(/needs at least one enabled eCard/);
    expect(await page.getByLabel('Reply-to email').getAttribute('aria-invalid')).to.equal('true');
    await screenshot(page, 'automation-enable-refused');
    await expectAccessible(page);

    await page.getByLabel('Reply-to email').fill('people@example.com');
    await page.getByLabel('Balloons', { exact: true }).first().check();
    await go(page, () => page.getByRole('button', { name: 'Save the automation' }).click(), /\?done=saved$/);
    await go(page, () => page.getByRole('button', { name: 'Enable', exact: true }).click(), /\?done=enabled$/);
    expect(await page.locator('#state-head').innerText()).to.include('Enabled');
    expect(await page.locator('.calendar .day-due').innerText()).to.include('Grace Hopper');
    await screenshot(page, 'automation-editor');
    await expectAccessible(page);
    await atPhoneWidth(page, 'automation-editor');
    const automations = expectSuccess(await call(stack.url, 'GET', '/v2/api/automation/list', { key: account.liveKey })) as Array<{ enabled: boolean; from_email: string }>;
    expect(automations).to.have.length(1);
    expect(automations[0]).to.deep.include({ enabled: true, from_email: 'people@example.com' });

    await go(page, () => page.getByRole('link', { name: 'All automations' }).click(), /\/automations$/);
    expect(await page.locator('tbody tr').innerText()).to.include('Birthdays').and.include('Enabled').and.include('1 due');
    await screenshot(page, 'automations-list');
    await expectAccessible(page);
    await atPhoneWidth(page, 'automations-list');
  });

  it('sends at each person’s local time: the checkbox saves recipient_timezone, the forecast shows each zone’s time', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000);
    const dob = `1990-${tomorrow.toISOString().slice(5, 10)}`;
    expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', date_of_birth: dob, timezone: 'Asia/Tokyo' } }));
    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Automations', exact: true }).click(), /\/v2\/console\/automations$/);
    await go(page, () => page.getByRole('link', { name: 'Birthdays' }).first().click(), /\/automations\/\d+$/);
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel('Send at each person’s local time').check();
    await go(page, () => page.getByRole('button', { name: 'Save the automation' }).click(), /\?done=saved$/);
    expect(await page.getByLabel('Send at each person’s local time').isChecked()).to.equal(true);
    expect(await page.getByLabel('Time zone').inputValue()).to.equal('Europe/Berlin');
    const automations = expectSuccess(await call(stack.url, 'GET', '/v2/api/automation/list', { key: account.liveKey })) as Array<{ timing_config: Record<string, unknown> }>;
    expect(automations[0]!.timing_config).to.deep.include({ send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: true });
    // 09:00 in Tokyo is 01:00 in Berlin (CET, or 02:00 in summer); Ada's entry names her zone's city.
    const zones = page.getByRole('list', { name: 'Each zone’s send time' });
    expect(await zones.innerText()).to.match(/Asia\/Tokyo: 09:00 there, 0[12]:00 in Europe\/Berlin/).and.include('Europe/Berlin: 09:00 there, 09:00 in Europe/Berlin');
    expect(await page.locator('.calendar .day-due').first().innerText()).to.include('Ada Lovelace').and.include('09:00 Tokyo');
    expect(await page.locator('.forecast .hint').first().innerText()).to.include('at the send time in each person’s time zone');
    await screenshot(page, 'automation-editor-local-time');
    await expectAccessible(page);
    await atPhoneWidth(page, 'automation-editor-local-time');
  });
});
