// The console's tables in Chromium: every table frame that scrolls is a named region a keyboard can focus (axe-core's
// scrollable-region-focusable, which fires only when the frame really scrolls, so the pages are seen at 375 px where
// a table is wider than its frame); the Members table shows its Status column whole at 1280 px with long names and
// every optional column; the Send page and the automation editor offer the shared time-zone picker.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { apiClient, call, expectSuccess, newAccount } from '../helpers/api.ts';
import { expectAccessible, screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

/** The table frames on the page that scroll sideways, each with what a screen reader and the Tab key see of it. */
const scrollingFrames = (page: Page) =>
  page.evaluate<Array<{ role: string | null; name: string | null; tabIndex: string | null }>>(
    "[...document.querySelectorAll('.table-wrap')].filter((f) => f.scrollWidth > f.clientWidth).map((f) => ({ role: f.getAttribute('role'), name: f.getAttribute('aria-label'), tabIndex: f.getAttribute('tabindex') }))",
  );

describe('console in a browser: table frames, the members table, the time-zone picker', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let page: Page;
  let account: Awaited<ReturnType<typeof newAccount>>;
  let ecardId: number;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Thanks' });
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id, { name: 'Thank you card' })).id;
    ({ page } = await signedInPage(stack, account.accountId));
  });

  const { ok } = apiClient(() => stack, () => account.liveKey);

  /** The page (at `path`, else the one shown) at 375 px: a table frame scrolls, each scrolling frame is a named, focusable region, axe-core is clean. */
  async function scrollingTablesReachable(path: string | undefined, name: string) {
    await page.setViewportSize({ width: 375, height: 800 });
    if (path) await page.goto(`${stack.url}${path}`);
    const frames = await scrollingFrames(page);
    expect(frames, `${name}: a table wider than its frame`).to.not.deep.equal([]);
    for (const frame of frames) {
      expect(frame.role).to.equal('region');
      expect(frame.name).to.be.a('string').and.not.equal('');
      expect(frame.tabIndex).to.equal('0');
    }
    await screenshot(page, `${name}-375`);
    await expectAccessible(page);
  }

  it('a send’s page: its recipients table scrolls in a focusable, named region', async () => {
    const emails = Array.from({ length: 4 }, (_, i) => `recipient-with-a-long-address-${i}@example.com`);
    const sent = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: emails.map((_, i) => `Recipient ${i}`), recipientEmail: emails } });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    await scrollingTablesReachable(`/v2/console/sends/${(sent.body as { sendId: string }).sendId}`, 'send-detail-table');
  });

  it('the campaign wizard’s CSV review: its table scrolls in a focusable, named region', async () => {
    const draft = await ok<{ id: number }>('POST', '/campaign/save', { campaign: { campaign_name: 'Wide CSV', from_name: 'People', from_email: 'people@example.com' } });
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: draft.id, ecardIds: [ecardId] });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${stack.url}/v2/console/campaigns/${draft.id}/recipients`);
    const csv = 'email,name,team,office\nana-with-a-long-address@example.com,Ana Lima,Blue team,North office\nbo-with-a-long-address@example.com,Bo Chen,Green team,South office\n';
    await page.getByLabel('Upload a CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Check the recipients' }).click();
    await page.getByRole('heading', { name: 'Check before saving' }).waitFor();
    await scrollingTablesReachable(undefined, 'campaign-review-table');
  });

  it('a campaign’s page: its recipients table scrolls in a focusable, named region', async () => {
    const draft = await ok<{ id: number }>('POST', '/campaign/save', { campaign: { campaign_name: 'Wide recipients', from_name: 'People', from_email: 'people@example.com' } });
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: draft.id, ecardIds: [ecardId] });
    await ok('POST', '/campaign/saveRecipients', { campaignid: draft.id, csvRecipients: [1, 2, 3].map((i) => ({ email: `person-with-a-long-address-${i}@example.com`, name: `Person ${i}` })) });
    await scrollingTablesReachable(`/v2/console/campaigns/${draft.id}`, 'campaign-table');
  });

  it('the Members table shows its Status column whole at 1280 px with long names and every optional column', async () => {
    for (const i of [1, 2]) {
      expectSuccess(
        await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', {
          key: account.liveKey,
          body: {
            email: `maximiliana.bartholomew-featherstonehaugh-${i}@subsidiary.international-example.com`,
            first_name: 'Maximiliana Alexandrina',
            last_name: 'Bartholomew-Featherstonehaugh',
            employee_id: `EMP-2026-000000${i}`,
            job_position: 'Principal Customer Experience Operations Specialist',
            departments: ['Customer Experience', 'International Operations', 'Research and Development'],
            hire_date: '2019-04-01',
            timezone: 'America/Argentina/Buenos_Aires',
          },
        }),
      );
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${stack.url}/v2/console/directory/members`);
    const frame = (await page.locator('.table-wrap').boundingBox())!;
    const right = Math.min(1280, frame.x + frame.width);
    const status = page.locator('table.members thead th', { hasText: 'Status' });
    const statusBox = (await status.boundingBox())!;
    expect(statusBox.x + statusBox.width, 'the Status heading’s right edge').to.be.at.most(right);
    for (const badge of await page.locator('table.members tbody .badge').all()) {
      const box = (await badge.boundingBox())!;
      expect(box.x + box.width, 'a status badge’s right edge').to.be.at.most(right);
    }
    await screenshot(page, 'directory-members-long-1280');
    await expectAccessible(page);
  });

  it('the Send page and the automation editor offer the shared time-zone picker (every zone the settings offer)', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // The picker's options, by the label a person reads (the partial writes the label for the select).
    const zonesOf = async (path: string, label: string) => {
      await page.goto(`${stack.url}${path}`);
      const id = await page.getByLabel(label, { exact: true }).getAttribute('id');
      return page.evaluate<string[]>(`[...document.querySelectorAll('select#${id!} option')].map((o) => o.value)`);
    };
    const settings = await zonesOf('/v2/console/local-time', 'Default time zone');
    expect(settings).to.include('Asia/Kolkata');
    expect(await zonesOf('/v2/console/send', 'Time zone')).to.deep.equal(settings);
    expect(await zonesOf('/v2/console/automations/new?type=birthday', 'Time zone')).to.deep.equal(settings);
  });
});
