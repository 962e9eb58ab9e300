// The console home and a widget's Stats tab in Chromium, under the pages' own CSP: the 30-day chart drawn by uPlot
// (a canvas with pixels on it, a readout when pointing at a day) over the table of the same figures, which folds into
// "Day by day"; the Stats tab's funnel; axe-core, 375 px, screenshots (and a small one of the home for the README,
// test-artifacts/console-home-readme.png, copied to docs/img/ by hand when the page changes).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { randomId } from '../../lib/ids.ts';
import { addToCounter } from '../../services/widgets/public/counters.ts';
import { newAccount } from '../helpers/api.ts';
import { insertAutomation } from '../helpers/automations.ts';
import { artifacts, atPhoneWidth, expectAccessibleElsewhere, screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertSend, insertWidget } from '../helpers/catalog.ts';
import { ownerUser } from '../helpers/console.ts';
import { seedMembers } from '../helpers/directory.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const DAY = 24 * 3600 * 1000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const noon = (n: number) => new Date(Date.parse(`${utcDay(new Date(Date.now() + n * DAY))}T12:00:00.000Z`));

describe('console in a browser: the home chart and a widget’s stats', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let page: Page;
  let widgetId: number;
  let totals: { sends: number; opens: number };
  let widgetSends: { sent: number; opened: number };
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    const account = await newAccount(stack.models, 'pro');
    const accountId = account.accountId;
    // Names for the README's picture (browser tests run on a fresh SQLite database: the email is free).
    await stack.models.Account.update({ name: 'Northwind Traders' }, { where: { id: accountId } });
    await (await ownerUser(stack.models, accountId)).update({ email: 'ana@northwind.example' });
    const widget = await insertWidget(stack.models, accountId, { name: 'Team thanks' });
    widgetId = widget.id;
    const ecards = [];
    for (const [i, name] of ['Thank you', 'Happy birthday', 'Welcome aboard', 'Work anniversary'].entries()) ecards.push(await insertEcard(stack.models, accountId, widget.id, { name, display_order: i }));

    // 30 days of sends in one insert: a weekly rhythm, about half opened; the figures the table must show.
    const rows = [];
    totals = { sends: 0, opens: 0 };
    for (let d = 29; d >= 0; d--) {
      const weekday = new Date(Date.now() - d * DAY).getUTCDay();
      const n = weekday === 0 || weekday === 6 ? 2 + (d % 2) : 6 + ((d * 7) % 9);
      for (let i = 0; i < n; i++) {
        const opened = (i + d) % 5 < 3;
        const ecard = ecards[(i * 3 + d) % 7 < 4 ? 0 : 1 + (i % 3)]!;
        totals.sends += 1;
        if (opened) totals.opens += 1;
        rows.push({
          send_id: crypto.randomUUID(), account_id: accountId, ecard_id: ecard.id, widget_id: widget.id, mode: 'email' as const, status: 'sent' as const, sandbox: false,
          sender_name: 'Sam', sender_email: 'sam@example.com', personal_message: null, locale: 'en', merge_tags: null, override_props: null,
          send_at: noon(-d), stat_vanity_id: randomId(24), opened_at: opened ? noon(-d) : null, quota_month: null, quota_count: 1,
          // Today's came from the widget (its Stats tab counts them); the others through the API.
          ...(d === 0 ? { origin: 'widget' as const, share_type: 'email' as const } : { origin: 'single' as const }),
        });
      }
    }
    const made = await stack.models.Send.bulkCreate(rows);
    const sent = await stack.models.Send.findAll({ where: { account_id: accountId }, attributes: ['id', 'opened_at'] });
    expect(sent.length).to.equal(made.length);
    await stack.models.SendRecipient.bulkCreate(sent.map((s) => ({ send_id: s.id, position: 1, recipient_name: 'Rita', recipient_email: 'rita@example.com', status: 'sent' as const, opened_at: s.opened_at })));
    // The next 7 days: two scheduled sends and a campaign; members, one with a birthday in three days.
    for (const [n, to] of [[1, 'lena@example.com'], [4, 'omar@example.com']] as const) {
      // Started, as far as the sweeper knows: it would otherwise start a workflow that moves the seeded status.
      const send = await insertSend(stack.models, ecards[n === 1 ? 1 : 2]!, to, { workflowStarted: true });
      await send.update({ status: 'scheduled', send_at: new Date(Date.now() + (n + 0.5) * DAY) });
    }
    const campaignWidget = await insertWidget(stack.models, accountId, { name: 'Campaign', is_campaign: true });
    const campaign = await stack.models.Campaign.create({
      account_id: accountId, widget_id: campaignWidget.id, campaign_name: 'Quarterly kudos', from_name: 'Ann', from_email: 'ann@example.com', personal_message: null,
      gift_card: null, status: 'scheduled', scheduled_at: new Date(Date.now() + 3 * DAY), scheduled_timezone: 'Europe/Paris',
    });
    await stack.models.CampaignRecipient.bulkCreate(['ava', 'ben', 'cy'].map((name) => ({ campaign_id: campaign.id, account_id: accountId, source: 'csv' as const, member_id: null, email: `${name}@example.com`, merge_fields: null })));
    await seedMembers(stack.models, accountId, 12, { disabledEvery: 6 });
    await stack.models.TeamMember.update({ date_of_birth: `1988-${utcDay(new Date(Date.now() + 3 * DAY)).slice(5)}` }, { where: { account_id: accountId, email: 'm1@seed.example.com' } });
    await insertAutomation(stack.models, accountId, 'UTC', ecards[1]!.id);
    // The widget's counters for the Stats tab.
    await addToCounter(stack, widget, 'view', noon(0), 120);
    await addToCounter(stack, widget, 'form_open', noon(0), 30);
    const today = rows.filter((r) => r.origin === 'widget');
    await addToCounter(stack, widget, 'send:email', noon(0), today.length);
    widgetSends = { sent: today.length, opened: today.filter((r) => r.opened_at).length };
    await stack.models.QuotaUsage.upsert({ account_id: accountId, month: new Date().toISOString().slice(0, 7), used: 1240 });
    await addToCounter(stack, widget, 'send:ecard_copy_link', noon(0), 4);
    await stack.models.WidgetAbuseEvent.create({ account_id: accountId, widget_id: widget.id, kind: 'honeypot', created_at: new Date() });

    // The pages under their own CSP (uPlot draws with CSSOM styles only); axe runs in another context.
    ({ page } = await signedInPage(stack, accountId, undefined, { bypassCSP: false }));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('draws the 30-day chart from the table, which keeps the figures; a day’s readout on pointing at it', async () => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => (msg.type() === 'error' ? errors.push(msg.text()) : undefined));
    await page.goto(`${stack.url}/v2/console/`);
    await page.locator('#activity-chart-box[data-drawn="true"]').waitFor();
    // Pixels on the canvas: the series drawn, not an empty frame.
    const painted = await page.evaluate<{ n: number; width: number }>(`(() => {
      const canvas = document.querySelector('#activity-chart canvas');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return { n, width: canvas.width };
    })()`);
    expect(painted.width).to.be.above(600);
    expect(painted.n).to.be.above(5000);
    expect(errors).to.deep.equal([]);

    // The table folded under the chart still holds every figure; opening it shows them.
    const figures = page.locator('#activity-figures');
    expect(await figures.getAttribute('open')).to.equal(null);
    const rate = `${(Math.round((totals.opens / totals.sends) * 1000) / 10).toFixed(1)} %`;
    expect(await page.locator('#activity-table tfoot tr > *').allTextContents()).to.deep.equal(['30 days', String(totals.sends), String(totals.opens), rate]);
    // By keyboard: the disclosure opens with Enter.
    await page.locator('#activity-figures > summary').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#activity-table tfoot').isVisible()).to.equal(true);
    expect(await page.locator('#activity-table tbody tr').count()).to.equal(30);
    expect(await page.locator('#total-sends').innerText()).to.equal(String(totals.sends));
    await page.getByText('Day by day').click();

    const box = (await page.locator('#activity-chart .u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
    await page.waitForFunction(`/: \\d+ sends?, \\d+ opened, open rate/.test(document.getElementById('chart-readout').textContent)`);
    await page.mouse.move(0, 0);

    await screenshot(page, 'home');
    // The README's picture: the top of the page at a laptop's width, quantised to stay small.
    await page.setViewportSize({ width: 1180, height: 900 });
    await page.locator('#activity-chart-box[data-drawn="true"]').waitFor();
    const shot = await page.screenshot({ fullPage: false });
    const small = await sharp(shot).png({ palette: true, quality: 80, compressionLevel: 9 }).toBuffer();
    writeFileSync(join(artifacts, 'console-home-readme.png'), small);
    expect(small.length).to.be.below(150_000);
    await page.setViewportSize({ width: 1280, height: 900 });

    await expectAccessibleElsewhere(page.context(), page.url());
    await atPhoneWidth(page, 'home');
    // Dark mode: the chart takes the dark tokens when drawn.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await page.locator('#activity-chart-box[data-drawn="true"]').waitFor();
    await screenshot(page, 'home-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('the widget’s Stats tab: the funnel, share modes and abuse log, a date range by form', async () => {
    await page.goto(`${stack.url}/v2/console/widgets/${widgetId}/ecards`);
    await Promise.all([page.waitForURL(/\/stats$/), page.getByRole('navigation', { name: 'Widget sections' }).getByRole('link', { name: 'Stats' }).click()]);
    const value = (key: string) => page.locator(`#funnel-${key} .funnel-value`).innerText();
    expect([await value('views'), await value('form_opens'), await value('sends'), await value('opens')]).to.deep.equal(['120', '30', String(widgetSends.sent + 4), String(widgetSends.opened)]);
    expect(await page.locator('#share-modes tr[data-mode="ecard_copy_link"] td').innerText()).to.equal('4');
    expect(await page.locator('#abuse-kinds tr[data-kind="honeypot"] td').innerText()).to.equal('1');
    await screenshot(page, 'widget-stats');
    await expectAccessibleElsewhere(page.context(), page.url());

    // A range of yesterday only: nothing counted then; the form keeps the dates.
    const yesterday = utcDay(new Date(Date.now() - DAY));
    await page.getByLabel('From').fill(yesterday);
    await page.getByLabel('To').fill(yesterday);
    await Promise.all([page.waitForURL(/dateFrom=/), page.getByRole('button', { name: 'Show' }).click()]);
    expect(await value('views')).to.equal('0');
    expect(await page.getByLabel('From').inputValue()).to.equal(yesterday);
    await atPhoneWidth(page, 'widget-stats');
  });
});
