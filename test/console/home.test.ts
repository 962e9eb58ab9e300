// The console home and a widget's Stats tab over HTTP, as a browser without JavaScript reads them: the 30-day
// figures table from seeded sends and opens (exact numbers; failed, old and another account's sends left out), top
// eCards with a campaign's copy counted for its eCard, the next 7 days (scheduled sends and campaigns listed, an
// automation's cards counted), seats; the Stats tab's funnel from seeded counters and sends, the share modes and the
// abuse log, a bad range shown beside its field, another account's widget 404.
import { expect } from 'chai';
import type { Ecard } from '../../models/Ecard.ts';
import { addToCounter } from '../../services/widgets/public/counters.ts';
import { insertAutomation } from '../helpers/automations.ts';
import { insertEcard, insertSend, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { seedMembers } from '../helpers/directory.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const DAY = 24 * 3600 * 1000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);
/** Noon (UTC) `n` days from today: inside that UTC day whatever the hour the test runs. */
const noon = (n: number) => new Date(Date.parse(`${utcDay(new Date(Date.now() + n * DAY))}T12:00:00.000Z`));

/** A page's text without tags' whitespace between cells, to match rows. */
const squeeze = (html: string) => html.replace(/>\s+</g, '><');

describe('console pages: home figures and widget stats', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof ownerOnPages>>;
  before(async () => {
    stack = await testStack();
    owner = await ownerOnPages(stack);
  });

  /** A send of `ecard` as the log would hold it: its status, day, origin and whether (and by how many recipients) it was opened. */
  async function seedSend(ecard: Ecard, fields: { status: 'sent' | 'failed' | 'scheduled'; at: Date; opened?: boolean; origin?: 'single' | 'campaign' | 'widget'; share_type?: string; to?: string }) {
    // Its workflow counts as started: the worker's sweeper would otherwise start one and move a seeded status.
    const send = await insertSend(stack.models, ecard, fields.to ?? 'rita@example.com', { workflowStarted: true });
    await send.update({ status: fields.status, send_at: fields.at, opened_at: fields.opened ? fields.at : null, origin: fields.origin ?? 'single', share_type: (fields.share_type ?? null) as never });
    if (fields.opened) await stack.models.SendRecipient.update({ opened_at: fields.at, status: 'sent' }, { where: { send_id: send.id } });
    return send;
  }

  it('shows the last 30 days as a table of exact figures, the top eCards, the next 7 days and the seats', async () => {
    const accountId = owner.account.accountId;
    const widget = await insertWidget(stack.models, accountId, { name: 'Team' });
    const thanks = await insertEcard(stack.models, accountId, widget.id, { name: 'Thank you' });
    const birthday = await insertEcard(stack.models, accountId, widget.id, { name: 'Happy birthday', display_order: 1 });
    const campaignWidget = await insertWidget(stack.models, accountId, { name: 'Campaign', is_campaign: true });
    const copy = await insertEcard(stack.models, accountId, campaignWidget.id, { name: 'Thank you' });
    await copy.update({ source_ecard_id: thanks.id });

    // Today: 3 sent (2 opened) and a failed one; two days ago: 2 sent (1 opened) and the campaign's copy, opened.
    for (const opened of [true, true, false]) await seedSend(thanks, { status: 'sent', at: noon(0), opened });
    await seedSend(thanks, { status: 'failed', at: noon(0) });
    for (const opened of [true, false]) await seedSend(birthday, { status: 'sent', at: noon(-2), opened });
    await seedSend(copy, { status: 'sent', at: noon(-2), opened: true, origin: 'campaign' });
    // Outside the window, and another account's: not counted.
    await seedSend(birthday, { status: 'sent', at: noon(-40), opened: true });
    const other = await ownerOnPages(stack);
    const otherWidget = await insertWidget(stack.models, other.account.accountId);
    await seedSend(await insertEcard(stack.models, other.account.accountId, otherWidget.id), { status: 'sent', at: noon(0), opened: true });

    // Next 7 days: a scheduled send in two days (listed), one in ten days (not); a campaign in three days.
    await seedSend(birthday, { status: 'scheduled', at: new Date(Date.now() + 2 * DAY), to: 'zoe@example.com' });
    await seedSend(thanks, { status: 'scheduled', at: new Date(Date.now() + 10 * DAY) });
    const campaign = await stack.models.Campaign.create({
      account_id: accountId, widget_id: campaignWidget.id, campaign_name: 'Year-end thanks', from_name: 'Ann', from_email: 'ann@example.com', personal_message: null,
      gift_card: null, status: 'scheduled', scheduled_at: new Date(Date.now() + 3 * DAY), scheduled_timezone: 'Asia/Kolkata',
    });
    for (const email of ['a@example.com', 'b@example.com']) {
      await stack.models.CampaignRecipient.create({ campaign_id: campaign.id, account_id: accountId, source: 'csv', member_id: null, email, merge_fields: null });
    }
    // Members: 3 active (one with a birthday in three days, which the enabled automation will send) and 1 deactivated.
    await seedMembers(stack.models, accountId, 4, { disabledEvery: 4 });
    const inThreeDays = new Date(Date.now() + 3 * DAY);
    await stack.models.TeamMember.update({ date_of_birth: `1990-${utcDay(inThreeDays).slice(5)}` }, { where: { account_id: accountId, email: 'm1@seed.example.com' } });
    await insertAutomation(stack.models, accountId, 'UTC', birthday.id);

    const res = await owner.browser.get('/v2/console/');
    expect(res.status).to.equal(200);
    const html = squeeze(await res.text());
    const row = (day: Date, sends: number, opens: number) =>
      `<tr data-date="${utcDay(day)}" data-sends="${sends}" data-opens="${opens}" data-rate="${sends ? (opens / sends).toFixed(4) : ''}"><th scope="row"><time datetime="${utcDay(day)}">`;
    expect(html).to.include(row(noon(0), 3, 2));
    expect(html).to.include(row(noon(-2), 3, 2));
    expect(html).to.include(row(noon(-1), 0, 0));
    expect((html.match(/<tr data-date=/g) ?? []).length).to.equal(30);
    expect(html).to.match(/<td class="num">3<\/td><td class="num">2<\/td><td class="num">66\.7 %<\/td><\/tr>/);
    expect(html).to.include('<tfoot><tr><th scope="row">30 days</th><td class="num">6</td><td class="num">4</td><td class="num">66.7 %</td></tr></tfoot>');
    expect(html).to.include('<span class="stat-value" id="total-sends">6</span>').and.include('<span class="stat-value" id="total-rate">66.7 %</span>');
    expect(html).to.include('<script type="module" src="/v2/console/assets/home-chart.js"></script>').and.include('id="activity-chart"');
    // Without JavaScript the table is open under the (hidden) chart.
    expect(html).to.include('<details class="figures" id="activity-figures" open>').and.include('<div class="activity-chart-box" id="activity-chart-box" hidden>');

    // Top eCards: "Thank you" 3 + its campaign copy 1 (3 opened), then "Happy birthday" 2 (1 opened).
    const top = /<table class="top-ecards">.*?<\/table>/s.exec(html)![0];
    expect(top).to.include(`<a href="/v2/console/ecards/${thanks.id}">Thank you</a></th><td class="num">4</td><td class="num">3</td><td class="num">75.0 %</td>`);
    expect(top).to.include(`<a href="/v2/console/ecards/${birthday.id}">Happy birthday</a></th><td class="num">2</td><td class="num">1</td><td class="num">50.0 %</td>`);
    expect(top.indexOf('Thank you')).to.be.below(top.indexOf('Happy birthday'));

    const next = /<section class="panel upcoming".*?<\/section>/s.exec(html)![0];
    expect(next).to.include('Scheduled sends <span class="badge">1</span>').and.match(/<a href="\/v2\/console\/sends\/[\w-]{36}"><strong>Happy birthday<\/strong><\/a> to Rita, from Sam/);
    expect(next).to.include('Campaigns <span class="badge">1</span>').and.match(/<a href="\/v2\/console\/campaigns\/\d+"><strong>Year-end thanks<\/strong><\/a>, 2 recipients \(Asia\/Kolkata\)/);
    expect(next).to.include('Automations will send <strong>1 card</strong> (1 automation).');
    expect(html).to.include('Seats used by active members</label><strong>3</strong> of 25');

    // The key assets the page loads are served.
    for (const asset of ['home-chart.js', 'uplot.js', 'uplot.css', 'home.css']) {
      const file = await owner.browser.get(`/v2/console/assets/${asset}`);
      expect(file.status, asset).to.equal(200);
    }
  });

  it('an account without sends shows zeros and says so', async () => {
    const fresh = await ownerOnPages(stack);
    const html = squeeze(await (await fresh.browser.get('/v2/console/')).text());
    expect(html).to.include('<span class="stat-value" id="total-sends">0</span>').and.include('<span class="stat-value" id="total-rate">–</span>');
    expect(html).to.include('No cards went out in the last 30 days').and.not.include('id="activity-chart"');
    expect(html).to.include('<details class="figures" id="activity-figures">');
    expect(html).to.include('No automation sends a card in the next 7 days.');
  });

  it('the Stats tab: the funnel from the counters and the widget’s sends, share modes, a date range, the abuse log', async () => {
    const accountId = owner.account.accountId;
    const widget = await insertWidget(stack.models, accountId, { name: 'Stats widget' });
    const ecard = await insertEcard(stack.models, accountId, widget.id, { name: 'Cheers' });
    const today = noon(0);
    const before = noon(-3);
    await addToCounter(stack, widget, 'view', today, 40);
    await addToCounter(stack, widget, 'view', before, 10);
    await addToCounter(stack, widget, 'form_open', today, 12);
    await addToCounter(stack, widget, 'send:email', today, 5);
    await addToCounter(stack, widget, 'send:facebook', today, 2);
    await addToCounter(stack, widget, 'silent', today, 3);
    // The widget's sends: 3 opened of 5 email recipients today (in sends of one recipient each), one opened three days ago.
    for (const opened of [true, true, true, false, false]) await seedSend(ecard, { status: 'sent', at: today, opened, origin: 'widget', share_type: 'email' });
    await seedSend(ecard, { status: 'sent', at: before, opened: true, origin: 'widget', share_type: 'email' });
    for (const kind of ['honeypot', 'honeypot', 'ip_limit'] as const) await stack.models.WidgetAbuseEvent.create({ account_id: accountId, widget_id: widget.id, kind, created_at: new Date() });

    const res = await owner.browser.get(`/v2/console/widgets/${widget.id}/stats`);
    expect(res.status).to.equal(200);
    const html = squeeze(await res.text());
    expect(html).to.include(`<a href="/v2/console/widgets/${widget.id}/stats" aria-current="page">Stats</a>`);
    const step = (key: string, label: string, value: number, rate?: string) =>
      `<li class="funnel-step" id="funnel-${key}"><div class="funnel-line"><span class="funnel-label">${label}</span><strong class="funnel-value">${value}</strong>${rate ? `<span class="funnel-rate">${rate}</span>` : ''}</div>`;
    expect(html).to.include(step('views', 'Gallery views', 50));
    expect(html).to.include(step('form_opens', 'Form opens', 12, '24.0 % of views'));
    expect(html).to.include(step('sends', 'Cards sent', 7, '58.3 % of form opens'));
    expect(html).to.include(step('opens', 'Opened', 4, '66.7 % of recipients'));
    expect(html).to.include('<tr data-mode="email"><th scope="row">Email</th><td class="num">5</td></tr>').and.include('<tr data-mode="facebook"><th scope="row">Facebook</th><td class="num">2</td></tr>');
    expect(html).to.include('<tr data-kind="honeypot"><th scope="row">Hidden field filled (a bot): answered like a success, nothing sent</th><td class="num">2</td></tr>');
    expect(html).to.include('<tr data-kind="ip_limit">');
    expect(html).to.include('Silent: submissions answered like a success and dropped (bots): 3 in these days.');

    // Today only: the earlier day's view and open drop out.
    const todayOnly = squeeze(await (await owner.browser.get(`/v2/console/widgets/${widget.id}/stats?dateFrom=${utcDay(today)}&dateTo=${utcDay(today)}`)).text());
    expect(todayOnly).to.include(step('views', 'Gallery views', 40)).and.include(step('opens', 'Opened', 3, '60.0 % of recipients'));
    expect(todayOnly).to.include(`value="${utcDay(today)}"`);
  });

  it('the Stats tab refuses a bad date beside its field (400) and a reversed range above the form (422); another account’s widget is 404', async () => {
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Ranges' });
    const bad = await owner.browser.get(`/v2/console/widgets/${widget.id}/stats?dateFrom=2026-02-30&dateTo=`);
    expect(bad.status).to.equal(400);
    const badHtml = await bad.text();
    expect(badHtml).to.include('aria-invalid="true" aria-describedby="dateFrom-error"').and.include('<p class="field-error" id="dateFrom-error">dateFrom: not a calendar day</p>');
    expect(badHtml).to.include('value="2026-02-30"').and.include('Abuse log');

    const reversed = await owner.browser.get(`/v2/console/widgets/${widget.id}/stats?dateFrom=2026-03-10&dateTo=2026-03-01`);
    expect(reversed.status).to.equal(422);
    expect(await reversed.text()).to.include('role="alert"').and.include('dateFrom (2026-03-10) is after dateTo (2026-03-01)');

    const stranger = await ownerOnPages(stack);
    expect((await stranger.browser.get(`/v2/console/widgets/${widget.id}/stats`)).status).to.equal(404);
    expect((await stranger.browser.get('/v2/console/widgets/999999999/stats')).status).to.equal(404);
  });
});
