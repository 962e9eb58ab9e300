// The console's campaign pages over HTTP, without JavaScript: the wizard step by step (field errors beside their
// fields, the CSV's rows and problems shown with nothing saved, then saved with the bad row skipped), schedule in
// a time zone, unschedule, cancel, locale, the progress JSON, CSRF, another account's campaign → 404. Results are
// read back through the key API.
import { expect } from 'chai';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import type { pageClient } from '../helpers/console.ts';
import { OWNER_PASSWORD, ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

interface CampaignOut {
  id: number;
  status: string;
  campaign_name: string;
  from_email: string | null;
  locale: string;
  ecard_ids: number[];
  source_ecard_ids: number[];
  scheduled_timezone: string | null;
  counts: { recipients: number };
}

const CSV = 'email,name,team\nana@example.com,Ana,Blue\nnot-an-email,Bad,Red\nbo@example.com,Bo,Green\n';
/** A wall-clock time two days ahead (ahead in every zone). */
const later = () => new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 16);

describe('console pages: campaigns', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let browser: ReturnType<typeof pageClient>;
  let csrf: string;
  let ecardId: number;
  let memberId: number;

  before(async () => {
    stack = await testStack();
    ({ account, browser, csrf } = await ownerOnPages(stack));
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Thanks widget' });
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id, { name: 'Thank you' })).id;
    const member = expectSuccess(
      await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email: 'dina@example.com', first_name: 'Dina', departments: ['Sales'] } }),
    ) as { member: { id: number } };
    memberId = member.member.id;
  });

  const findOne = async (id: number) => expectSuccess(await call(stack.url, 'GET', `/v2/api/campaign/findOne/id/${id}`, { key: account.liveKey })) as CampaignOut;
  const recipientsOf = (id: number) => stack.models.CampaignRecipient.count({ where: { campaign_id: id } });

  /** A draft made through the first step: its id. */
  async function draft(name: string): Promise<number> {
    const res = await browser.post('/v2/console/campaigns', { _csrf: csrf, campaign_name: name, from_name: 'People', from_email: 'people@example.com', personal_message: '', locale: 'en' });
    expect(res.status, await res.clone().text()).to.equal(303);
    return Number(/campaigns\/(\d+)\/ecards/.exec(res.headers.get('location')!)![1]);
  }

  /** A draft with the eCard and one CSV recipient, ready to start. */
  async function ready(name: string): Promise<number> {
    const id = await draft(name);
    expect((await browser.post(`/v2/console/campaigns/${id}/ecards`, { _csrf: csrf, ecard_ids: String(ecardId) })).status).to.equal(303);
    expect((await browser.post(`/v2/console/campaigns/${id}/recipients`, { _csrf: csrf, step: 'save', csv_content: 'email\nzed@example.com\n' })).status).to.equal(303);
    return id;
  }

  it('walks the wizard without JavaScript: errors beside fields, the CSV checked with nothing saved, then saved with the bad row skipped', async () => {
    const list = await (await browser.get('/v2/console/campaigns')).text();
    expect(list).to.include('No campaigns yet').and.include('href="/v2/console/campaigns/new"').and.include('aria-current="page">Campaigns<');

    const form = await (await browser.get('/v2/console/campaigns/new')).text();
    for (const name of ['campaign_name', 'from_name', 'from_email', 'personal_message', 'locale']) expect(form, name).to.include(`name="${name}"`);

    const bad = await browser.post('/v2/console/campaigns', { _csrf: csrf, campaign_name: '', from_name: 'People', from_email: 'nope', personal_message: '', locale: 'en' });
    expect(bad.status).to.equal(400);
    const badHtml = await bad.text();
    expect(badHtml).to.match(/id="campaign_name-error">Give the campaign a name</).and.match(/id="from_email-error">Enter an email address/);
    expect(badHtml).to.include('value="People"');
    expect(await stack.models.Campaign.count({ where: { account_id: account.accountId } })).to.equal(0);

    const made = await browser.post('/v2/console/campaigns', { _csrf: csrf, campaign_name: 'Year end', from_name: 'People', from_email: 'people@example.com', personal_message: 'Thank you all', locale: 'en' });
    expect(made.status).to.equal(303);
    expect(made.headers.get('location')).to.match(/^\/v2\/console\/campaigns\/\d+\/ecards\?done=created$/);
    const id = Number(/campaigns\/(\d+)/.exec(made.headers.get('location')!)![1]);
    expect(await findOne(id)).to.deep.include({ status: 'draft', campaign_name: 'Year end', from_email: 'people@example.com' });

    const ecards = await (await browser.get(`/v2/console/campaigns/${id}/ecards`)).text();
    expect(ecards).to.include('Thank you').and.include(`value="${ecardId}"`).and.include('Thanks widget');
    const none = await browser.post(`/v2/console/campaigns/${id}/ecards`, { _csrf: csrf });
    expect(none.status).to.equal(400);
    expect(await none.text()).to.match(/id="ecard_ids-error">Pick at least one eCard/);
    const picked = await browser.post(`/v2/console/campaigns/${id}/ecards`, { _csrf: csrf, ecard_ids: String(ecardId) });
    expect(picked.headers.get('location')).to.equal(`/v2/console/campaigns/${id}/recipients`);
    expect((await findOne(id)).source_ecard_ids).to.deep.equal([ecardId]);

    // The directory picker: the department filter lists the member; a department can be ticked whole.
    const step = await (await browser.get(`/v2/console/campaigns/${id}/recipients?department=&q=din`)).text();
    expect(step).to.include('dina@example.com').and.include('name="department_ids"').and.include('>Sales<');

    // Check: the CSV (a file) and the member; rows and the problem shown, nothing saved.
    const upload = new FormData();
    for (const [k, v] of Object.entries({ _csrf: csrf, step: 'check', member_ids: String(memberId) })) upload.append(k, v);
    upload.append('csv_file', new Blob([CSV], { type: 'text/csv' }), 'people.csv');
    const check = await browser.postMultipart(`/v2/console/campaigns/${id}/recipients`, upload);
    expect(check.status).to.equal(200);
    const review = await check.text();
    expect(review).to.include('ana@example.com').and.include('bo@example.com').and.include('Line 3: not a valid email address');
    expect(review).to.include('<strong>2</strong> of 3 CSV rows are valid').and.include('Save 3 recipients and continue');
    // The file's text is in the form now, so "Save" sends it again.
    expect(review).to.include('not-an-email,Bad,Red');
    expect(await recipientsOf(id)).to.equal(0);

    // A CSV without an email column: the reason beside the CSV field, nothing saved.
    const fatal = await browser.post(`/v2/console/campaigns/${id}/recipients`, { _csrf: csrf, step: 'save', csv_content: 'name\nAna\n' });
    expect(fatal.status).to.equal(422);
    expect(await fatal.text()).to.match(/id="csv-error">[^<]*email/);
    const empty = await browser.post(`/v2/console/campaigns/${id}/recipients`, { _csrf: csrf, step: 'check' });
    expect(empty.status).to.equal(422);
    expect(await empty.text()).to.include('Pick at least one member or department');
    expect(await recipientsOf(id)).to.equal(0);

    const save = await browser.post(`/v2/console/campaigns/${id}/recipients`, { _csrf: csrf, step: 'save', member_ids: String(memberId), csv_content: CSV });
    expect(save.headers.get('location')).to.equal(`/v2/console/campaigns/${id}/launch?done=recipients`);
    expect((await findOne(id)).counts.recipients).to.equal(3);
    const emails = (await stack.models.CampaignRecipient.findAll({ where: { campaign_id: id }, order: [['email', 'ASC']] })).map((r) => r.email);
    expect(emails).to.deep.equal(['ana@example.com', 'bo@example.com', 'dina@example.com']);

    // Launch: a time in the past beside the field; then scheduled in Asia/Kolkata.
    const launch = await (await browser.get(`/v2/console/campaigns/${id}/launch?done=recipients`)).text();
    expect(launch).to.include('The recipients are saved.').and.include('<option value="Asia/Kolkata"').and.include('<option value="UTC"');
    const past = await browser.post(`/v2/console/campaigns/${id}/launch`, { _csrf: csrf, when: 'later', scheduled_at: '2020-01-01T09:00', scheduled_timezone: 'Asia/Kolkata' });
    expect(past.status).to.equal(422);
    expect(await past.text()).to.match(/id="scheduled_at-error">scheduled_at must be at least/);
    const noTime = await browser.post(`/v2/console/campaigns/${id}/launch`, { _csrf: csrf, when: 'later', scheduled_at: '', scheduled_timezone: 'Asia/Kolkata' });
    expect(noTime.status).to.equal(400);
    expect(await noTime.text()).to.match(/id="scheduled_at-error">Pick a date and time/);
    const zone = await browser.post(`/v2/console/campaigns/${id}/launch`, { _csrf: csrf, when: 'later', scheduled_at: later(), scheduled_timezone: 'Mars/Base' });
    expect(zone.status).to.equal(400);
    expect(await zone.text()).to.match(/id="scheduled_timezone-error">/);
    expect((await findOne(id)).status).to.equal('draft');

    const scheduled = await browser.post(`/v2/console/campaigns/${id}/launch`, { _csrf: csrf, when: 'later', scheduled_at: later(), scheduled_timezone: 'Asia/Kolkata' });
    expect(scheduled.headers.get('location')).to.equal(`/v2/console/campaigns/${id}?done=scheduled`);
    expect(await findOne(id)).to.deep.include({ status: 'scheduled', scheduled_timezone: 'Asia/Kolkata' });
    const pageHtml = await (await browser.get(`/v2/console/campaigns/${id}?done=scheduled`)).text();
    expect(pageHtml).to.include('The campaign is scheduled.').and.include('Asia/Kolkata').and.include(`action="/v2/console/campaigns/${id}/unschedule"`);
    expect(pageHtml).to.include('src="/v2/console/assets/campaign-progress.js"').and.include('<progress');
    // Past its draft the wizard's steps lead to the campaign's page.
    expect((await browser.get(`/v2/console/campaigns/${id}/recipients`)).headers.get('location')).to.equal(`/v2/console/campaigns/${id}`);

    const listed = await (await browser.get('/v2/console/campaigns?status=scheduled')).text();
    expect(listed).to.include('Year end').and.include('badge badge-warning');

    const unscheduled = await browser.post(`/v2/console/campaigns/${id}/unschedule`, { _csrf: csrf });
    expect(unscheduled.headers.get('location')).to.equal(`/v2/console/campaigns/${id}?done=unscheduled`);
    expect((await findOne(id)).status).to.equal('draft');
    // Unschedule again: the service's refusal on the page, not a 500.
    const again = await browser.post(`/v2/console/campaigns/${id}/unschedule`, { _csrf: csrf });
    expect(again.status).to.equal(422);
    expect(await again.text()).to.include('unschedule needs scheduled');
  });

  it('cancels a scheduled campaign, sets a draft’s language (a bad code beside the field), serves the progress JSON', async () => {
    const id = await ready('To cancel');
    expect((await browser.post(`/v2/console/campaigns/${id}/locale`, { _csrf: csrf, locale: 'not a code!' })).status).to.equal(400);
    const badLocale = await browser.post(`/v2/console/campaigns/${id}/locale`, { _csrf: csrf, locale: 'x' });
    expect(await badLocale.text()).to.match(/id="locale-error">Enter a language code/);
    expect((await browser.post(`/v2/console/campaigns/${id}/locale`, { _csrf: csrf, locale: 'fr-CA' })).headers.get('location')).to.equal(`/v2/console/campaigns/${id}?done=locale`);
    expect((await findOne(id)).locale).to.equal('fr-CA');

    expect((await browser.post(`/v2/console/campaigns/${id}/launch`, { _csrf: csrf, when: 'later', scheduled_at: later(), scheduled_timezone: 'UTC' })).status).to.equal(303);
    const progress = await browser.get(`/v2/console/api/campaigns/${id}/progress`);
    expect(progress.status).to.equal(200);
    expect(((await progress.json()) as { data: unknown }).data).to.deep.include({ status: 'scheduled', live: true, done: 0, total: 1, percent: 0 });
    const canceled = await browser.post(`/v2/console/campaigns/${id}/cancel`, { _csrf: csrf });
    expect(canceled.headers.get('location')).to.equal(`/v2/console/campaigns/${id}?done=canceled`);
    expect((await findOne(id)).status).to.equal('canceled');
    const after = await (await browser.get(`/v2/console/campaigns/${id}`)).text();
    expect(after).to.include('>canceled<').and.include(`href="/v2/console/campaigns/${id}/delete"`);
    expect(after).not.to.include(`/campaigns/${id}/cancel"`);
  });

  it('gift settings: turned on without a product or amount is refused beside the fields', async () => {
    const id = await ready('Gifts');
    const res = await browser.post(`/v2/console/campaigns/${id}/gift`, { _csrf: csrf, gift_card_enabled: 'on', product_id: '', amount: '' });
    expect(res.status).to.equal(400);
    const html = await res.text();
    expect(html).to.match(/id="product_id-error">Pick a gift card/).and.match(/id="amount-error">Enter an amount/);
    expect((await findOne(id))).to.deep.include({ gift_card_enabled: false });
  });

  it('a gift campaign asks for its confirmation inline: the first start renders it (409); confirming steps up, then issues and spends the token', async () => {
    const id = await ready('Gift run');
    const gift = await browser.post(`/v2/console/campaigns/${id}/gift`, { _csrf: csrf, gift_card_enabled: 'on', product_id: 'manual:Acme:2500', amount: '25' });
    expect(gift.headers.get('location')).to.equal(`/v2/console/campaigns/${id}/launch?done=gift`);
    expect((await findOne(id))).to.deep.include({ gift_card_enabled: true, gift_card: { product_id: 'manual:Acme:2500', amount: 25 } });

    const first = await browser.post(`/v2/console/campaigns/${id}/launch`, { _csrf: csrf, when: 'now', scheduled_at: '', scheduled_timezone: 'UTC' });
    expect(first.status).to.equal(409);
    const confirm = await first.text();
    expect(confirm).to.include('Confirm the gift cards').and.include('name="confirm" value="yes"').and.include('gc_confirmation_token');
    expect((await findOne(id)).status).to.equal('draft');

    // Confirming: without a fresh password the step-up page, coming back to the launch step.
    const confirmed = await browser.post(`/v2/console/campaigns/${id}/launch`, { _csrf: csrf, when: 'now', scheduled_at: '', scheduled_timezone: 'UTC', confirm: 'yes' });
    const tokens = () => stack.models.ConfirmationToken.count({ where: { account_id: account.accountId, purpose: 'gc_campaign_send', resource_id: String(id) } });
    const back = `/v2/console/campaigns/${id}/launch`;
    expect(confirmed.status).to.equal(303);
    expect(confirmed.headers.get('location')).to.equal(`/v2/console/step-up?next=${encodeURIComponent(back)}`);
    expect(await tokens()).to.equal(0);
    const stepUp = await browser.post('/v2/console/step-up', { _csrf: csrf, password: OWNER_PASSWORD, next: back });
    expect(stepUp.headers.get('location')).to.equal(back);
    // Stepped up: the token is issued and spent in the same request; the manual product (no codes stocked) is then
    // refused by the rewards rules, shown on the step, and the spend rolls back with the start.
    const again = await browser.post(back, { _csrf: csrf, when: 'now', scheduled_at: '', scheduled_timezone: 'UTC', confirm: 'yes' });
    expect(again.status).to.equal(422);
    expect(await again.text()).to.include('manual:Acme:2500');
    expect(await tokens()).to.equal(1);
    expect((await findOne(id)).status).to.equal('draft');
  });

  it('refuses a form without the CSRF token; another account’s campaign is a 404 on every page', async () => {
    const noToken = await browser.post('/v2/console/campaigns', { campaign_name: 'No token', from_name: '', from_email: 'a@example.com', personal_message: '', locale: 'en' });
    expect(noToken.status).to.equal(403);
    expect(await stack.models.Campaign.count({ where: { account_id: account.accountId, campaign_name: 'No token' } })).to.equal(0);

    const other = await newAccount(stack.models);
    const foreign = expectSuccess(await call(stack.url, 'POST', '/v2/api/campaign/save', { key: other.liveKey, body: { campaign: { campaign_name: 'Theirs' } } })) as { id: number };
    for (const path of ['', '/details', '/ecards', '/recipients', '/launch']) {
      expect((await browser.get(`/v2/console/campaigns/${foreign.id}${path}`)).status, path).to.equal(404);
    }
    for (const path of ['/unschedule', '/cancel', '/locale', '/details', '/ecards', '/recipients', '/launch', '/gift']) {
      expect((await browser.post(`/v2/console/campaigns/${foreign.id}${path}`, { _csrf: csrf, locale: 'en', step: 'save', csv_content: 'email\nx@example.com\n', when: 'now' })).status, path).to.equal(404);
    }
    expect((await browser.get(`/v2/console/api/campaigns/${foreign.id}/progress`)).status).to.equal(404);
    // Another account's member or eCard in a form: 404, nothing saved.
    const mine = await draft('Mine');
    expect((await browser.post(`/v2/console/campaigns/${mine}/ecards`, { _csrf: csrf, ecard_ids: String(ecardId + 100_000) })).status).to.equal(404);
    expect(await recipientsOf(foreign.id)).to.equal(0);
  });
});
