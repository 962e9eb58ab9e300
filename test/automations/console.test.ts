// The console's automation pages over HTTP, without JavaScript: create and edit a birthday and a holiday automation
// through the editor's form, a value the key API's schema refuses shown beside its field with nothing saved,
// enabling refused with the service's messages beside the fields then allowed, the forecast naming the member due,
// notification eCards, CSRF, and another account's automation 404. Results are read back through the key API.
import { expect } from 'chai';
import { updateAccountSettings } from '../../services/account-settings.ts';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { hidden, OWNER_PASSWORD, ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

interface AutomationOut {
  id: number;
  automation_name: string;
  event_type: string;
  enabled: boolean;
  from_email: string | null;
  trigger_config: Record<string, unknown>;
  timing_config: Record<string, unknown> | null;
  selected_ecard_ids: number[];
  notification_ecards: Record<string, number[]>;
}

/** The editor's common fields as a browser posts them (every field, blank unless given). */
const editorForm = (fields: Record<string, string>) => ({
  automation_name: '', from_name: '', from_email: '', locale: 'en', send_time: '', timezone: '', days_before: '', random_messages: '', notify_days_before: '0', ...fields,
});

/**
 * A weekday two or more days ahead (UTC), never 29 February: with skip_weekends a Saturday or Sunday birthday moves
 * to the Friday before, which may be today and past its send time, so the forecast would not name the member.
 */
function weekdayAhead(now: Date): string {
  for (let days = 2; ; days++) {
    const day = new Date(now.getTime() + days * 86_400_000);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6 && !(day.getUTCMonth() === 1 && day.getUTCDate() === 29)) return day.toISOString().slice(0, 10);
  }
}

describe('console pages: automations', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof ownerOnPages>>;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    owner = await ownerOnPages(stack);
    const widget = await insertWidget(stack.models, owner.account.accountId);
    ecardId = (await insertEcard(stack.models, owner.account.accountId, widget.id, { name: 'Happy birthday' })).id;
  });

  const post = (path: string, form: Record<string, string>) => owner.browser.post(path, { _csrf: owner.csrf, ...form });
  const findOne = async (id: number) => expectSuccess(await call(stack.url, 'GET', `/v2/api/automation/findOne/id/${id}`, { key: owner.account.liveKey })) as AutomationOut;
  const count = () => stack.models.Automation.count({ where: { account_id: owner.account.accountId } });

  it('creates a birthday automation by form, edits it, refuses enabling with the messages beside the fields, then enables it; the forecast names who is due', async () => {
    const chooser = await (await owner.browser.get('/v2/console/automations/new')).text();
    for (const type of ['birthday', 'anniversary', 'holiday', 'fixed_date', 'custom_field', 'rule_based', 'onboarding']) expect(chooser).to.include(`?type=${type}"`);
    const blank = await (await owner.browser.get('/v2/console/automations/new?type=birthday')).text();
    expect(blank).to.include('name="event_type" value="birthday"').and.include('name="send_time"').and.include(`name="ecard_${ecardId}"`);

    const made = await post('/v2/console/automations', { event_type: 'birthday', ...editorForm({ automation_name: 'Birthdays', send_time: '09:00', timezone: 'UTC' }) });
    expect(made.status, await made.clone().text()).to.equal(303);
    const id = Number(/automations\/(\d+)\?done=saved$/.exec(made.headers.get('location')!)![1]);
    let saved = await findOne(id);
    expect(saved).to.deep.include({ automation_name: 'Birthdays', event_type: 'birthday', enabled: false, from_email: null });
    expect(saved.timing_config).to.deep.include({ send_time: '09:00', timezone: 'UTC' });

    // Enabling without eCards or a reply-to address: 422, each missing item beside its field, still disabled.
    const refused = await post(`/v2/console/automations/${id}/enable`, { enabled: 'yes' });
    expect(refused.status).to.equal(422);
    const page = await refused.text();
    expect(page).to.match(/id="ecards-error"><p>Automation \d+ needs at least one enabled eCard/);
    expect(page).to.match(/id="from_email-error"><p>Automation \d+ needs from_email to be enabled/);
    expect(page).to.include('aria-invalid="true" aria-describedby="from_email-error"');
    expect((await findOne(id)).enabled).to.equal(false);

    // A member whose birthday is a weekday soon, and the eCard and reply-to set: the forecast names her.
    const dob = `1990${weekdayAhead(new Date()).slice(4)}`;
    expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: owner.account.liveKey, body: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', date_of_birth: dob } }));
    const edited = await post(`/v2/console/automations/${id}`, editorForm({ automation_name: 'Birthdays', send_time: '09:00', timezone: 'UTC', from_email: 'hr@example.com', [`ecard_${ecardId}`]: 'on', skip_weekends: 'on' }));
    expect(edited.status, await edited.clone().text()).to.equal(303);
    saved = await findOne(id);
    expect(saved.selected_ecard_ids).to.deep.equal([ecardId]);
    expect(saved.timing_config).to.deep.include({ skip_weekends: true });
    const editor = await (await owner.browser.get(edited.headers.get('location')!)).text();
    expect(editor).to.include('The automation is saved.').and.include(`name="ecard_${ecardId}" checked`);
    expect(editor).to.include('Ada Lovelace');

    const enabled = await post(`/v2/console/automations/${id}/enable`, { enabled: 'yes' });
    expect(enabled.status).to.equal(303);
    expect(enabled.headers.get('location')).to.equal(`/v2/console/automations/${id}?done=enabled`);
    expect((await findOne(id)).enabled).to.equal(true);
    const list = await (await owner.browser.get('/v2/console/automations')).text();
    expect(list).to.include('Birthdays').and.include('Enabled');

    // Notification eCards: the manager digest gets the eCard.
    const notified = await post(`/v2/console/automations/${id}/notifications`, { [`notify_manager_${ecardId}`]: 'on' });
    expect(notified.status).to.equal(303);
    expect((await findOne(id)).notification_ecards).to.deep.include({ manager: [ecardId], department: [] });

    const disabled = await post(`/v2/console/automations/${id}/enable`, { enabled: 'no' });
    expect(disabled.status).to.equal(303);
    expect((await findOne(id)).enabled).to.equal(false);
  });

  it('“send at each person’s local time”: the checkbox saves recipient_timezone and back; a send time in quiet hours is shown beside it', async () => {
    const made = await post('/v2/console/automations', { event_type: 'birthday', ...editorForm({ automation_name: 'Local birthdays', send_time: '09:00', timezone: 'Asia/Tokyo', recipient_timezone: 'on' }) });
    expect(made.status, await made.clone().text()).to.equal(303);
    const id = Number(/automations\/(\d+)\?done=saved$/.exec(made.headers.get('location')!)![1]);
    expect((await findOne(id)).timing_config).to.deep.include({ send_time: '09:00', timezone: 'Asia/Tokyo', recipient_timezone: true });
    const editor = await (await owner.browser.get(`/v2/console/automations/${id}`)).text();
    expect(editor).to.match(/<input type="checkbox" name="recipient_timezone"[^>]* checked>/);
    expect(editor).to.include('<option value="Asia/Tokyo" selected>');
    expect(editor).to.include('aria-label="Each zone’s send time"').and.include('Asia/Tokyo: 09:00 there, 09:00 in Asia/Tokyo');
    // Unticked: the field is absent from the post, and the option goes off.
    const off = await post(`/v2/console/automations/${id}`, editorForm({ automation_name: 'Local birthdays', send_time: '09:00', timezone: 'Asia/Tokyo' }));
    expect(off.status).to.equal(303);
    expect((await findOne(id)).timing_config).to.deep.include({ recipient_timezone: false });
    expect(await (await owner.browser.get(`/v2/console/automations/${id}`)).text()).to.not.include('Each zone’s send time');

    await updateAccountSettings(stack.services, owner.account.accountId, { quiet_hours: { start: '22:00', end: '07:00' } });
    try {
      const quiet = await post(`/v2/console/automations/${id}`, editorForm({ automation_name: 'Local birthdays', send_time: '23:30', timezone: 'Asia/Tokyo' }));
      expect(quiet.status).to.equal(422);
      expect(await quiet.text()).to.match(/id="send_time-error"><p>timing_config.send_time 23:30 is inside the account(&#x27;|')s quiet hours \(22:00-07:00\)/);
      expect((await findOne(id)).timing_config).to.deep.include({ send_time: '09:00' });
    } finally {
      await updateAccountSettings(stack.services, owner.account.accountId, { quiet_hours: null });
    }
  });

  it('creates and edits a holiday automation; a bad month and a bad time are shown beside their fields and nothing is saved', async () => {
    const before = await count();
    const bad = await post('/v2/console/automations', { event_type: 'holiday', ...editorForm({ automation_name: 'New year', name: 'New year', month: '13', day: '1', send_time: '25:00', timezone: 'UTC' }) });
    expect(bad.status).to.equal(400);
    const page = await bad.text();
    expect(page).to.match(/id="month-error"><p>automation\.trigger_config\.month: /);
    expect(page).to.match(/id="send_time-error"><p>automation\.timing_config\.send_time: expected a time HH:mm/);
    expect(page).to.include('value="New year"');
    expect(await count()).to.equal(before);

    const made = await post('/v2/console/automations', { event_type: 'holiday', ...editorForm({ automation_name: 'New year', name: 'New year', month: '1', day: '1', send_time: '08:30', timezone: 'Europe/Berlin' }) });
    expect(made.status).to.equal(303);
    const id = Number(/automations\/(\d+)/.exec(made.headers.get('location')!)![1]);
    expect((await findOne(id)).trigger_config).to.deep.equal({ month: 1, day: 1, name: 'New year' });

    const edited = await post(`/v2/console/automations/${id}`, editorForm({ automation_name: 'Hogmanay', name: 'Hogmanay', month: '12', day: '31', send_time: '08:30', timezone: 'Europe/London' }));
    expect(edited.status).to.equal(303);
    const saved = await findOne(id);
    expect(saved).to.deep.include({ automation_name: 'Hogmanay', trigger_config: { month: 12, day: 31, name: 'Hogmanay' } });
    expect(saved.timing_config).to.deep.include({ timezone: 'Europe/London' });

    // A day the month does not have: beside the day, the stored automation unchanged.
    const badDay = await post(`/v2/console/automations/${id}`, editorForm({ automation_name: 'Hogmanay', name: 'Hogmanay', month: '2', day: '30', send_time: '08:30', timezone: 'Europe/London' }));
    expect(badDay.status).to.equal(400);
    expect(await badDay.text()).to.match(/id="day-error"><p>automation\.trigger_config\.day: month 2 has no day 30/);
    expect((await findOne(id)).trigger_config).to.deep.include({ month: 12, day: 31 });
  });

  it('opens the editor of each of the seven types with its own fields; a milestone the schema refuses is shown beside the milestones', async () => {
    const fields: Record<string, string> = { birthday: 'name="send_time"', anniversary: 'name="years"', holiday: 'name="month"', fixed_date: 'name="repeat"', custom_field: 'name="field"', rule_based: 'name="milestone_rules"', onboarding: 'name="days_after_hire"' };
    for (const [type, field] of Object.entries(fields)) {
      const res = await owner.browser.get(`/v2/console/automations/new?type=${type}`);
      expect(res.status, type).to.equal(200);
      expect(await res.text(), type).to.include(field).and.include(`name="event_type" value="${type}"`);
    }
    expect((await owner.browser.get('/v2/console/automations/new?type=party')).status).to.equal(400);
    const before = await count();
    const bad = await post('/v2/console/automations', { event_type: 'rule_based', ...editorForm({ automation_name: 'Milestones', milestone_rules: '6 months\nsoon', send_time: '09:00', timezone: 'UTC' }) });
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.match(/id="milestone_rules-error"><p>automation\.milestone_rules\.1: exactly one of after_years, after_months, after_days/);
    expect(await count()).to.equal(before);
    const made = await post('/v2/console/automations', { event_type: 'rule_based', ...editorForm({ automation_name: 'Milestones', milestone_rules: '6 months\n1 year\n100 days', date_field: 'date_of_birth', send_time: '09:00', timezone: 'UTC' }) });
    expect(made.status).to.equal(303);
    const id = Number(/automations\/(\d+)/.exec(made.headers.get('location')!)![1]);
    const saved = await findOne(id) as AutomationOut & { milestone_rules: unknown[] };
    expect(saved.trigger_config).to.deep.equal({ date_field: 'date_of_birth' });
    expect(saved.milestone_rules).to.deep.equal([{ after_months: 6, ecard_ids: [] }, { after_years: 1, ecard_ids: [] }, { after_days: 100, ecard_ids: [] }]);
    expect(await (await owner.browser.get(`/v2/console/automations/${id}`)).text()).to.include('6 months\n1 year\n100 days');
  });

  it('gift cards: set while disabled, then enabling asks for the gc_automation_enable token inline (step-up, confirm)', async () => {
    const made = await post('/v2/console/automations', { event_type: 'birthday', ...editorForm({ automation_name: 'Gifts', send_time: '09:00', timezone: 'UTC', from_email: 'hr@example.com', [`ecard_${ecardId}`]: 'on' }) });
    const id = Number(/automations\/(\d+)/.exec(made.headers.get('location')!)![1]);
    const badGift = await post(`/v2/console/automations/${id}/gift`, { gift_card_enabled: 'on', product_id: 'manual:amazon:25', amount: 'lots' });
    expect(badGift.status).to.equal(400);
    expect(await badGift.text()).to.match(/id="gift-error"><p>automation\.gift_card\.amount: /);
    const gift = await post(`/v2/console/automations/${id}/gift`, { gift_card_enabled: 'on', product_id: 'manual:amazon:25', amount: '25' });
    expect(gift.status, await gift.clone().text()).to.equal(303);

    const asked = await post(`/v2/console/automations/${id}/enable`, { enabled: 'yes' });
    expect(asked.status).to.equal(409);
    const confirmation = await asked.text();
    expect(confirmation).to.include('Confirm the gift cards').and.include('name="confirm" value="yes"').and.include(`action="/v2/console/automations/${id}/enable"`);
    expect((await findOne(id)).enabled).to.equal(false);
    // Confirming asks for the password first, then the confirmation is made again and goes through.
    const confirmed = await post(`/v2/console/automations/${id}/enable`, { enabled: 'yes', confirm: 'yes' });
    expect(confirmed.status).to.equal(303);
    const stepUp = await (await owner.browser.get(confirmed.headers.get('location')!)).text();
    const back = await owner.browser.post('/v2/console/step-up', { _csrf: hidden(stepUp, '_csrf'), next: hidden(stepUp, 'next'), password: OWNER_PASSWORD });
    expect(back.headers.get('location')).to.equal(`/v2/console/automations/${id}`);
    const done = await post(`/v2/console/automations/${id}/enable`, { enabled: 'yes', confirm: 'yes' });
    expect(done.headers.get('location')).to.equal(`/v2/console/automations/${id}?done=enabled`);
    expect((await findOne(id))).to.deep.include({ enabled: true });
  });

  it('refuses a form without the CSRF token, and another account’s automation is 404', async () => {
    const before = await count();
    const forged = await owner.browser.post('/v2/console/automations', { event_type: 'birthday', ...editorForm({ automation_name: 'Forged' }) });
    expect(forged.status).to.equal(403);
    expect(await count()).to.equal(before);

    const other = await newAccount(stack.models);
    const theirs = expectSuccess(await call(stack.url, 'POST', '/v2/api/automation/save', { key: other.liveKey, body: { automation: { automation_name: 'Theirs', event_type: 'birthday' } } })) as AutomationOut;
    expect((await owner.browser.get(`/v2/console/automations/${theirs.id}`)).status).to.equal(404);
    for (const path of ['', '/enable', '/gift', '/notifications']) {
      const res = await post(`/v2/console/automations/${theirs.id}${path}`, { enabled: 'yes', automation_name: 'Mine now' });
      expect(res.status, path).to.equal(404);
    }
    expect((await call(stack.url, 'GET', `/v2/api/automation/findOne/id/${theirs.id}`, { key: other.liveKey })).body).to.deep.nested.include({ 'data.automation_name': 'Theirs', 'data.enabled': false });
  });
});
