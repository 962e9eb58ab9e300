import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { apiClient, expectFailure, newAccount, type TestAccount } from '../helpers/api.ts';
import { expectAccessible, screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { shareCard } from '../helpers/sends.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const PASSWORD = 'correct horse battery';

describe('console in a browser: keys, tokens and deletes', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let counter = 0;
  before(async function () {
    // Browser flows run once, on SQLite (the MariaDB run checks the same pages through their API tests).
    if (mysqlUrl) this.skip();
    stack = await testStack();
    // Campaign sends go out by email, to the stack's SMTP server.
    await testSmtpServer();
  });

  const { api, ok } = apiClient(() => stack);

  /** Every page visited: a screenshot, then axe-core. */
  async function seen(page: Page, name: string): Promise<void> {
    await screenshot(page, name);
    await expectAccessible(page);
  }

  /** An earlier send's share page in the browser: still there, and the card opens onto its header. */
  async function expectSharePage(page: Page, statVanityId: string, sender: string, name: string): Promise<void> {
    const res = await page.goto(`${stack.url}/e/${statVanityId}`);
    expect(res?.status()).to.equal(200);
    await page.getByRole('button', { name: 'Open your eCard' }).click();
    await page.getByRole('heading', { name: 'Happy day' }).waitFor({ state: 'visible' });
    expect(await page.textContent('article')).to.include(`${sender} sent you an eCard`);
    await seen(page, name);
  }

  it('creates a scoped key, shown once (no-store) and working on the key API; the list shows only its last 4 characters', async () => {
    const account = await newAccount(stack.models);
    const { page } = await signedInPage(stack, account.accountId, PASSWORD);
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${stack.url}/v2/console/keys`);
    await seen(page, 'keys-before');
    await page.getByRole('link', { name: 'Create a key' }).click();
    await page.waitForURL(`${stack.url}/v2/console/keys/new`);
    await seen(page, 'keys-new');
    await page.getByLabel('Name').fill('Reporting');
    await page.getByLabel('Scoped (the levels below)').check();
    await page.getByLabel('ecards').selectOption('manage');
    await page.getByLabel('gift cards').selectOption('view');
    await page.getByLabel('analytics').selectOption('view');
    // A key reads people and the log at most.
    for (const area of ['team', 'audit']) expect(await page.getByLabel(area, { exact: true }).locator('option').allTextContents()).to.deep.equal(['none', 'view']);
    // The show-once page is the POST's own answer (no redirect, so no URL to come back to).
    const [shown] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v2/console/keys'),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    expect(shown.status()).to.equal(200);
    expect(shown.headers()['cache-control']).to.equal('no-store');
    await page.getByRole('heading', { name: 'Your new API key' }).waitFor();
    const key = await page.getByLabel('API key “Reporting”').inputValue();
    expect(key).to.have.length.above(20);
    expect(await page.getByRole('status').textContent()).to.include('shown only this once');
    await seen(page, 'keys-secret');

    const info = await ok('GET', '/key/info', undefined, key);
    expect(info).to.deep.include({ name: 'Reporting', mode: 'live', full_access: false });
    expect(info.permissions).to.deep.equal({
      ecards: 'manage', widgets: 'none', campaigns: 'none', automations: 'none', gift_cards: 'view', directory: 'none',
      webhooks: 'none', sends: 'none', analytics: 'view', brands: 'none', media: 'none', settings: 'none', team: 'none', audit: 'none',
    });

    await page.getByRole('link', { name: 'Back to the keys' }).click();
    await page.waitForURL(`${stack.url}/v2/console/keys`);
    const row = page.getByRole('row').filter({ hasText: 'Reporting' });
    expect(await row.textContent()).to.include(`…${key.slice(-4)}`);
    // Nowhere in the list: not in its text, nor in its markup (an attribute, a hidden field).
    expect(await page.content()).not.to.include(key);
    expect(await page.content()).not.to.include(key.slice(0, -4));
    await seen(page, 'keys-after');
  });

  it('issues a widget_delete token after step-up; the key API deletes the in-use widget with it and the earlier send still renders', async () => {
    const account = await newAccount(stack.models);
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Birthdays' });
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Cake' });
    const sent = await shareCard(stack.url, account.liveKey, ecard.id);
    // In use: without a token the key API refuses.
    expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] }, account.liveKey), 403, 'confirmation_required');

    const { page } = await signedInPage(stack, account.accountId, PASSWORD);
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Confirmation tokens' }).click();
    await page.waitForURL(`${stack.url}/v2/console/tokens`);
    await seen(page, 'tokens');
    await page.getByLabel('Purpose').selectOption('widget_delete');
    await page.getByLabel('Resource id').fill(String(widget.id));
    // Step-up first: the password again, then back to the form, filled in.
    await Promise.all([page.waitForURL((url) => url.pathname === '/v2/console/step-up'), page.getByRole('button', { name: 'Issue token' }).click()]);
    await seen(page, 'tokens-step-up');
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([page.waitForURL((url) => url.pathname === '/v2/console/tokens'), page.getByRole('button', { name: 'Continue' }).click()]);
    expect(await page.getByLabel('Purpose').inputValue()).to.equal('widget_delete');
    expect(await page.getByLabel('Resource id').inputValue()).to.equal(String(widget.id));
    await seen(page, 'tokens-after-step-up');
    const [shown] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v2/console/tokens'),
      page.getByRole('button', { name: 'Issue token' }).click(),
    ]);
    expect(shown.headers()['cache-control']).to.equal('no-store');
    await page.getByRole('heading', { name: 'Your confirmation token' }).waitFor();
    expect(await page.textContent('main')).to.include(`For: Delete a widget in use (widget id), id ${widget.id} (widget_delete).`);
    const token = await page.getByLabel('Confirmation token').inputValue();
    expect(token).to.not.equal('');
    await seen(page, 'tokens-secret');

    expect(await ok('POST', '/widget/deleteWidgets', { widgetids: [widget.id], otp_confirmation_token: token }, account.liveKey)).to.deep.equal({ deleted: [widget.id] });
    expectFailure(await api('GET', `/widget/findOne/id/${widget.id}`, undefined, account.liveKey), 404, 'not_found');
    await expectSharePage(page, sent.statVanityId, 'Sam', 'share-after-widget-delete');
  });

  it('deletes a sent campaign on its confirmation page; its earlier send still renders', async () => {
    const account: TestAccount = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const created = await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Spring greetings', from_name: 'HR', from_email: 'hr@example.com' } }, account.liveKey);
    const id = created.id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] }, account.liveKey);
    const domain = `browser${process.pid}-${++counter}.example.com`;
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: [{ email: `r0@${domain}`, name: 'R 0' }] }, account.liveKey);
    await ok('POST', '/campaign/send', { campaignid: id }, account.liveKey);
    await eventually(() => ok('GET', `/campaign/findOne/id/${id}`, undefined, account.liveKey), (c) => c.status === 'sent', 60_000);
    const send = await stack.models.Send.findOne({ where: { account_id: account.accountId, origin: 'campaign', origin_id: id }, rejectOnEmpty: true });

    const { page } = await signedInPage(stack, account.accountId, PASSWORD);
    await page.goto(`${stack.url}/v2/console/campaigns/${id}/delete`);
    await page.getByRole('heading', { name: 'Delete the campaign “Spring greetings”' }).waitFor();
    const details = await page.textContent('dl');
    expect(details).to.include('Spring greetings');
    expect(details).to.include('sent');
    await seen(page, 'campaign-delete');
    await Promise.all([page.waitForURL(`${stack.url}/v2/console/campaigns/${id}/deleted`), page.getByRole('button', { name: 'Delete the campaign' }).click()]);
    await page.getByRole('heading', { name: 'Campaign deleted' }).waitFor();
    expect(await page.getByRole('status').textContent()).to.equal(`The campaign ${id} was deleted.`);
    await seen(page, 'campaign-deleted');

    expectFailure(await api('GET', `/campaign/findOne/id/${id}`, undefined, account.liveKey), 404, 'not_found');
    await expectSharePage(page, send.stat_vanity_id, 'HR', 'share-after-campaign-delete');
  });
});
