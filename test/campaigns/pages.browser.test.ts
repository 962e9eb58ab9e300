// The campaign pages in Chromium, as an owner (a key only to set up and check): a campaign run from the wizard with
// one directory member and a CSV of three rows, one bad (reported and skipped), watched to `sent` on the progress
// bar; one scheduled in Asia/Kolkata and unscheduled. axe-core, 375 px, screenshots; and the README's picture of a
// campaign in progress.
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { apiClient, call, expectSuccess, newAccount } from '../helpers/api.ts';
import { artifacts, atPhoneWidth, byKeyboard, expectAccessible, go, screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const CSV = 'email,name,team\nana@example.com,Ana Lima,Blue\nnot-an-email,Bad Row,Red\nbo@example.com,Bo Chen,Green\n';

describe('console in a browser: campaigns', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;
  let account: Awaited<ReturnType<typeof newAccount>>;
  let ecardId: number;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models);
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Thanks' });
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id, { name: 'Thank you card' })).id;
    expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email: 'dina@example.com', first_name: 'Dina', last_name: 'Ortiz', departments: ['Sales'] } }));
    ({ page } = await signedInPage(stack, account.accountId));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  const { ok } = apiClient(() => stack, () => account.liveKey);

  it('runs a campaign from the wizard: one member and a CSV with a bad row (reported, skipped), to sent on the progress bar', async () => {
    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Campaigns', exact: true }).click(), /\/v2\/console\/campaigns$/);
    await screenshot(page, 'campaigns-empty');
    await go(page, () => page.getByRole('link', { name: 'New campaign' }).click(), /\/campaigns\/new$/);

    // Step 1: a missing name is reported beside the field.
    await page.getByLabel('Sender email').fill('people@example.com');
    await page.getByRole('button', { name: 'Create the draft and continue' }).click();
    await page.locator('#campaign_name-error').waitFor();
    expect(await page.locator('#campaign_name-error').innerText()).to.equal('Give the campaign a name');
    await expectAccessible(page);
    await page.getByLabel('Campaign name').fill('Year-end thanks');
    await page.getByLabel('Sender name').fill('The People Team');
    await go(page, () => page.getByRole('button', { name: 'Create the draft and continue' }).click(), /\/ecards\?done=created$/);

    // Step 2: the eCard.
    await page.getByLabel(/Thank you card/).check();
    await screenshot(page, 'campaign-ecards');
    await expectAccessible(page);
    await go(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), /\/recipients$/);

    // Step 3: the member (found by the department filter) and the CSV file; checked first, nothing saved.
    await page.getByLabel('Department', { exact: true }).selectOption({ label: 'Sales' });
    await go(page, () => page.getByRole('button', { name: 'Show members' }).click(), /\/recipients\?department=\d+/);
    await page.getByLabel(/dina@example\.com/).check();
    await page.getByLabel('Upload a CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByRole('button', { name: 'Check the recipients' }).click();
    await page.getByRole('heading', { name: 'Check before saving' }).waitFor();
    expect(await page.locator('.problems').innerText()).to.include('Line 3: not a valid email address');
    expect(await page.locator('.review table').innerText()).to.include('ana@example.com').and.include('bo@example.com');
    expect(await stack.models.CampaignRecipient.count({ where: { account_id: account.accountId } })).to.equal(0);
    await screenshot(page, 'campaign-recipients-review');
    await expectAccessible(page);
    await atPhoneWidth(page, 'campaign-recipients-review');
    await go(page, () => page.getByRole('button', { name: 'Save 3 recipients and continue' }).click(), /\/launch\?done=recipients$/);

    // Step 4: send now.
    await screenshot(page, 'campaign-launch');
    await expectAccessible(page);
    await atPhoneWidth(page, 'campaign-launch');
    await go(page, () => page.getByRole('button', { name: 'Start the campaign' }).click(), /\/campaigns\/\d+\?done=sending$/);
    const id = Number(/campaigns\/(\d+)/.exec(page.url())![1]);

    // The script polls and the page ends at sent with a full bar (it reloads itself when the campaign ends).
    await page.locator('[data-status]', { hasText: 'sent' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('#campaign-bar').getAttribute('value')).to.equal('100');
    expect(await page.locator('[data-count="sent"]').innerText()).to.equal('3');
    const found = expectSuccess(await call(stack.url, 'GET', `/v2/api/campaign/findOne/id/${id}`, { key: account.liveKey })) as { status: string; counts: { sent: number } };
    expect(found).to.deep.include({ status: 'sent' });
    expect(found.counts.sent).to.equal(3);
    await screenshot(page, 'campaign-sent');
    await expectAccessible(page);
    await atPhoneWidth(page, 'campaign-sent');

    await go(page, () => page.getByRole('link', { name: 'All campaigns' }).click(), /\/campaigns$/);
    expect(await page.locator('.campaign-table').innerText()).to.include('Year-end thanks');
    await screenshot(page, 'campaigns-list');
    await expectAccessible(page);
    await atPhoneWidth(page, 'campaigns-list');
  });

  it('schedules a campaign in Asia/Kolkata and unschedules it', async () => {
    const draft = await ok<{ id: number }>('POST', '/campaign/save', { campaign: { campaign_name: 'Diwali greetings', from_name: 'People', from_email: 'people@example.com' } });
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: draft.id, ecardIds: [ecardId] });
    await ok('POST', '/campaign/saveRecipients', { campaignid: draft.id, csvRecipients: [{ email: 'priya@example.com', name: 'Priya' }] });
    await page.goto(`${stack.url}/v2/console/campaigns/${draft.id}/launch`);
    await page.getByLabel('At a date and time').check();
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Date and time', { exact: true }).fill(`${at}T18:30`);
    await page.getByLabel('Time zone').selectOption('Asia/Kolkata');
    await go(page, () => byKeyboard(page, page.getByRole('button', { name: 'Start the campaign' })), /\?done=scheduled$/);
    expect(await page.locator('.campaign-status').innerText()).to.include(`Scheduled for ${at} 18:30 Asia/Kolkata`);
    const scheduled = expectSuccess(await call(stack.url, 'GET', `/v2/api/campaign/findOne/id/${draft.id}`, { key: account.liveKey })) as { status: string; scheduled_at: string; scheduled_timezone: string };
    expect(scheduled).to.deep.include({ status: 'scheduled', scheduled_timezone: 'Asia/Kolkata', scheduled_at: `${at}T13:00:00.000Z` });
    await screenshot(page, 'campaign-scheduled');
    await expectAccessible(page);

    await go(page, () => page.getByRole('button', { name: 'Unschedule' }).click(), /\?done=unscheduled$/);
    expect(await page.locator('.notice').innerText()).to.include('back to draft');
    expect(await page.locator('[data-status]').textContent()).to.equal('draft');
  });

  it('schedules a campaign in each recipient\'s zone and shows its waves', async () => {
    const draft = await ok<{ id: number }>('POST', '/campaign/save', { campaign: { campaign_name: 'Local nine o\'clock', from_name: 'People', from_email: 'people@example.com' } });
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: draft.id, ecardIds: [ecardId] });
    const zones = { 'kenji@example.com': 'Asia/Tokyo', 'lena@example.com': 'Europe/Berlin' };
    for (const [email, timezone] of Object.entries(zones)) {
      expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email, first_name: email.split('@')[0], timezone } }));
    }
    const ids = (await stack.models.TeamMember.findAll({ where: { account_id: account.accountId, email: Object.keys(zones) } })).map((m) => m.id);
    await ok('POST', '/campaign/saveRecipients', { campaignid: draft.id, directoryMemberIds: ids, csvRecipients: [{ email: 'dana@example.com', name: 'Dana', merge_fields: { timezone: 'America/Denver' } }] });
    await page.goto(`${stack.url}/v2/console/campaigns/${draft.id}/launch`);
    await page.getByLabel('At a date and time').check();
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Date and time', { exact: true }).fill(`${day}T09:00`);
    await page.getByLabel('Time zone').selectOption({ label: 'In each recipient’s zone' });
    await go(page, () => page.getByRole('button', { name: 'Start the campaign' }).click(), /\?done=scheduled$/);
    expect(await page.locator('.campaign-status').innerText()).to.include(`Scheduled for ${day} 09:00 in each recipient’s zone`);
    const rows = await page.locator('table.waves tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t').slice(0, 2).concat(r.split('\t')[3]!, r.split('\t')[4]!))).to.deep.equal([
      ['Asia/Tokyo', `${day} 09:00`, '1', 'waiting'],
      ['Europe/Berlin', `${day} 09:00`, '1', 'waiting'],
      ['America/Denver', `${day} 09:00`, '1', 'waiting'],
    ]);
    await screenshot(page, 'campaign-waves');
    await expectAccessible(page);
    await atPhoneWidth(page, 'campaign-waves');
    // Rescheduling shows the choice again, selected.
    await page.goto(`${stack.url}/v2/console/campaigns/${draft.id}/launch`);
    expect(await page.getByLabel('Time zone').inputValue()).to.equal('recipient');
    await page.goto(`${stack.url}/v2/console/campaigns/${draft.id}`);
    await go(page, () => page.getByRole('button', { name: 'Unschedule' }).click(), /\?done=unscheduled$/);
    expect(await page.locator('table.waves').count()).to.equal(0);
  });

  it('a campaign in progress (the README picture)', async () => {
    // A campaign part-way through, set in the database (its workflow marked started, so nothing sends it): 26 of
    // 40 sent, 2 skipped, 9 opened.
    const made = await ok<{ id: number }>('POST', '/campaign/save', { campaign: { campaign_name: 'Welcome, spring hires', from_name: 'The People Team', from_email: 'people@example.com' } });
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: made.id, ecardIds: [ecardId] });
    const names = ['Ava Brooks', 'Ben Carter', 'Chloe Diaz', 'Dev Patel', 'Emma Fischer', 'Felix Grant', 'Grace Hall', 'Hugo Ito', 'Isla Jones', 'Jonas Klein'];
    const rows = Array.from({ length: 40 }, (_, i) => {
      const name = `${names[i % names.length]!}${i >= names.length ? ` ${Math.floor(i / names.length) + 1}` : ''}`;
      return { email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`, name };
    });
    await ok('POST', '/campaign/saveRecipients', { campaignid: made.id, csvRecipients: rows });
    const now = new Date();
    await stack.models.Campaign.update({ status: 'sending', started_at: new Date(now.getTime() - 90_000), workflow_started: true }, { where: { id: made.id } });
    const recipients = await stack.models.CampaignRecipient.findAll({ where: { campaign_id: made.id }, order: [['id', 'ASC']] });
    await stack.models.CampaignRecipient.update({ status: 'sent', sent_at: now }, { where: { id: recipients.slice(0, 26).map((r) => r.id) } });
    await stack.models.CampaignRecipient.update({ status: 'skipped', reason: 'suppressed' }, { where: { id: recipients.slice(26, 28).map((r) => r.id) } });

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${stack.url}/v2/console/campaigns/${made.id}`);
    expect(await page.locator('#campaign-bar').getAttribute('value')).to.equal('70');
    await expectAccessible(page);
    const png = await page.screenshot({ type: 'png' });
    const small = await sharp(png).png({ palette: true, quality: 90, compressionLevel: 9, effort: 10 }).toBuffer();
    await sharp(small).toFile(join(artifacts, 'console-campaign.png'));
    expect(small.length, 'the README picture').to.be.below(150 * 1024);
    await screenshot(page, 'campaign-in-progress');
    await page.setViewportSize({ width: 1280, height: 900 });
    // Set down again, so no background pass picks it up later in the suite.
    await stack.models.Campaign.update({ status: 'canceled', completed_at: now }, { where: { id: made.id } });
  });
});
