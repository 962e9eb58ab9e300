// The Audit log page in Chromium: the owner's rows in a table, filtered from the keyboard (the action's field, Enter),
// a bad day refused beside its field; axe-core clean, at 375 px, a screenshot of each.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { look, signedInPage } from '../helpers/browser.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('the audit log page in a browser', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let account: TestAccount;
  let page: Page;

  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
    const base = { account_id: account.accountId, actor_user_id: null, actor_key_id: null, target_id: null, target_type: null, ip: '203.0.113.9', user_agent: 'curl/8', request_id: null, details: null } as const;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    await stack.models.AuditEvent.create({ ...base, occurred_at: at(30), actor_type: 'api_key', actor_label: 'Website (csk_live_…9f2c)', action: 'widgets.save', target_type: 'widgets', target_id: '12', outcome: 'success', surface: 'api' });
    await stack.models.AuditEvent.create({ ...base, occurred_at: at(20), actor_type: 'api_key', actor_label: 'Reporting (csk_live_…41aa)', action: 'access.denied', outcome: 'denied', surface: 'api', details: JSON.stringify({ method: 'POST', route: '/v2/api/widget/save', required: 'widgets:write' }) });
    await stack.models.AuditEvent.create({ ...base, occurred_at: at(10), actor_type: 'user', actor_label: 'maria@example.com', action: 'keys.create', target_type: 'keys', target_id: '3', outcome: 'success', surface: 'console' });
    ({ page } = await signedInPage(stack, account.accountId));
    // The page is shown the three rows above; the sign-in's own row is tested in test/audit/sign-in.test.ts.
    await stack.models.AuditEvent.destroy({ where: { account_id: account.accountId, action: 'session.sign_in' } });
  });

  it('lists the rows newest first, with who, what and whether it was refused', async () => {
    await page.goto(`${stack.url}/v2/console/settings/audit`);
    const rows = page.locator('.audit-table tbody tr');
    expect(await rows.count()).to.equal(3);
    expect(await rows.first().innerText()).to.include('maria@example.com');
    expect(await rows.nth(1).innerText()).to.include('Refused');
    await look(page, 'console-audit');
  });

  it('filters by an area from the keyboard', async () => {
    await page.getByLabel('Action').focus();
    await page.keyboard.type('widgets.*');
    await Promise.all([page.waitForURL(/action=widgets/), page.keyboard.press('Enter')]);
    const rows = page.locator('.audit-table tbody tr');
    expect(await rows.count()).to.equal(1);
    expect(await rows.first().innerText()).to.include('widgets.save');
  });

  it('a bad day is refused beside its field', async () => {
    const res = await page.goto(`${stack.url}/v2/console/settings/audit?from=2026-13-45`);
    expect(res?.status()).to.equal(400);
    expect(await page.locator('#from-error').innerText()).to.equal('A day as YYYY-MM-DD.');
    await look(page, 'console-audit-refused');
  });
});
