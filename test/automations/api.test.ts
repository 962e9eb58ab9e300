// Automation endpoints through HTTP: save (create, partial update, aliases, sanitizing), list, findOne with
// next_firings, toggle and the watermark, enabling's 422, the gift-card token, delete, notification eCards,
// scopes, and every refusal in the envelope with nothing saved.
import { expect } from 'chai';
import type { TeamMember } from '../../models/TeamMember.ts';
import { lastPassedDate } from '../../services/automations/local-date.ts';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

const pad = (n: number) => String(n).padStart(2, '0');
/** A send time six hours from now in UTC: the last passed date cannot change while a test runs. */
function farSendTime(): string {
  const at = new Date(Date.now() + 6 * 3600_000);
  return `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`;
}
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('automations: the API', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let account: TestAccount;
  let ecardIds: number[];
  let counter = 0;

  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId);
    ecardIds = [(await insertEcard(stack.models, account.accountId, widget.id, { name: 'A' })).id, (await insertEcard(stack.models, account.accountId, widget.id, { name: 'B' })).id];
  });

  const { api, ok } = apiClient(() => stack, () => account.liveKey);
  const save = (automation: Json, extra: Json = {}, key = account.liveKey) => api('POST', '/automation/save', { automation, ...extra }, key);
  const saved = async (automation: Json, extra: Json = {}) => expectSuccess(await save(automation, extra)) as Json;
  const findOne = (id: number) => ok('GET', `/automation/findOne/id/${id}`);
  const count = () => stack.models.Automation.count({ where: { account_id: account.accountId } });
  const row = async (id: number) => (await stack.models.Automation.findByPk(id))!;
  const member = (fields: Partial<TeamMember> = {}, accountId = account.accountId) =>
    stack.models.TeamMember.create({
      account_id: accountId, email: `p${process.pid}-${++counter}@api.example.com`, employee_id: null, first_name: 'Pat', last_name: 'Lee', job_position: null,
      date_of_birth: null, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null, ...fields,
    });
  /** A birthday automation that may be enabled. */
  const complete = (extra: Json = {}): Json => ({
    automation_name: 'Birthdays', event_type: 'birthday', from_email: 'hr@example.com', selected_ecard_ids: [ecardIds[0]],
    timing_config: { send_time: farSendTime(), timezone: 'UTC' }, ...extra,
  });

  it('save creates a disabled automation and updates only the fields sent; findOne shows the whole configuration', async () => {
    const created = await saved({ automation_name: 'Birthdays', event_type: 'birthday' });
    expect(created).to.deep.include({
      automation_name: 'Birthdays', event_type: 'birthday', enabled: false, from_name: null, from_email: null, locale: 'en', trigger_config: {},
      timing_config: null, random_messages: [], selected_ecard_ids: [], selected_member_ids: [], selected_department_ids: [], milestone_rules: [],
      notify_days_before: 0, gift_card_enabled: false, gift_card: null, next_firings: [],
    });
    expect(created.notification_segment).to.deep.equal({ member_ids: [], department_ids: [] });
    expect(created.notification_ecards).to.deep.equal({ manager: [], department: [], segment: [] });
    const id = created.id as number;

    const m = await member();
    const dept = await stack.models.Department.create({ account_id: account.accountId, name: 'Sales', name_key: 'sales' });
    const updated = await saved({
      id,
      event_type: 'anniversary',
      from_name: 'HR',
      from_email: 'HR@Example.com',
      locale: 'fr',
      trigger_config: { years: [1, 5], month: 3, milestone_rules: [{ after_years: 5, ecard_ids: [ecardIds[1]], messages: ['<b>Five</b><script>x()</script>'] }] },
      timing_config: { send_time: '09:30', timezone: 'Europe/Paris', days_before: 2, skip_weekends: 1 },
      random_messages: { a: '<p>Hi</p><img src=x onerror="alert(1)">', b: 'Plain' },
      selected_ecard_ids: ecardIds,
      selected_member_ids: [m.id],
      selected_department_ids: [dept.id],
      notify_days_before: 3,
      notification_segment: { member_ids: [m.id] },
      gift_card: { product_id: 'manual:amazon:25', amount: 25 },
    });
    expect(updated).to.deep.include({
      automation_name: 'Birthdays', event_type: 'anniversary', from_name: 'HR', from_email: 'hr@example.com', locale: 'fr',
      trigger_config: { years: [1, 5] },
      timing_config: { send_time: '09:30', timezone: 'Europe/Paris', days_before: 2, skip_weekends: true },
      selected_ecard_ids: ecardIds, selected_member_ids: [m.id], selected_department_ids: [dept.id], notify_days_before: 3,
      gift_card: { product_id: 'manual:amazon:25', amount: 25 }, enabled: false,
    });
    expect(updated.random_messages).to.deep.equal(['<p>Hi</p><img src="x" />', 'Plain']);
    expect(updated.milestone_rules).to.deep.equal([{ after_years: 5, ecard_ids: [ecardIds[1]], messages: ['<b>Five</b>'] }]);
    expect(updated.notification_segment).to.deep.equal({ member_ids: [m.id], department_ids: [] });
    // The rules' eCards are rows, not JSON.
    expect(JSON.parse((await row(id)).milestone_rules!)).to.deep.equal([{ after_years: 5, messages: ['<b>Five</b>'] }]);
    expect(await stack.models.AutomationEcard.count({ where: { automation_id: id } })).to.equal(3);

    // Partial: only the name; an object sent replaces the old one whole; null clears a list.
    const renamed = await saved({ id, automation_name: 'Work anniversaries', timing_config: { send_time: '08:00', timezone: 'UTC' }, selected_member_ids: null });
    expect(renamed).to.deep.include({ automation_name: 'Work anniversaries', from_name: 'HR', locale: 'fr', trigger_config: { years: [1, 5] }, selected_member_ids: [] });
    expect(renamed.timing_config).to.deep.equal({ send_time: '08:00', timezone: 'UTC' });
    expect(renamed.selected_ecard_ids).to.deep.equal(ecardIds);
    expect(new Date(renamed.updatedat as string).getTime()).to.be.at.least(new Date(created.updatedat as string).getTime());
    expect(await findOne(id)).to.deep.equal(renamed);

    // Changing the type keeps only the fields the new type has.
    const holiday = await saved({ id, event_type: 'holiday', trigger_config: { month: 12, day: 25, name: 'Christmas', years: [3], date_field: 'x' } });
    expect(holiday.trigger_config).to.deep.equal({ month: 12, day: 25, name: 'Christmas' });
    const fixed = await saved({ id, event_type: 'fixed_date' });
    expect(fixed.trigger_config).to.deep.equal({ month: 12, day: 25 });
    // The time zone is stored as the client wrote an IANA name.
    expect((await saved({ id, timing_config: { send_time: '07:00', timezone: 'Asia/Kolkata' } })).timing_config).to.deep.equal({ send_time: '07:00', timezone: 'Asia/Kolkata' });
    expect(await count()).to.equal(1);
  });

  it('create needs automation_name and event_type (422); types and ranges are 400; nothing is saved', async () => {
    for (const automation of [{ event_type: 'birthday' }, { automation_name: 'X' }, { automation_name: '', event_type: 'birthday' }, { automation_name: '  ', event_type: 'holiday' }]) {
      expectFailure(await save(automation), 422, 'missing_field');
    }
    expectFailure(await api('POST', '/automation/save', {}), 422, 'missing_field');
    const base = { automation_name: 'X', event_type: 'birthday' };
    const bad: Json[] = [
      { event_type: 'xmas' },
      { enabled: 'yes' },
      { notify_days_before: 61 },
      { notify_days_before: -1 },
      { notify_days_before: 1.5 },
      { timing_config: { send_time: '9:00', timezone: 'UTC' } },
      { timing_config: { send_time: '24:00', timezone: 'UTC' } },
      { timing_config: { send_time: '09:00', timezone: 'Mars/Olympus' } },
      { timing_config: { send_time: '09:00', timezone: '+02:00' } },
      { timing_config: { send_time: '09:00', timezone: 'UTC', days_before: 61 } },
      { timing_config: { send_time: '09:00', timezone: 'UTC', skip_weekends: 'sometimes' } },
      { event_type: 'onboarding', trigger_config: { days_after_hire: 366 } },
      { event_type: 'onboarding', trigger_config: { days_after_hire: -1 } },
      { event_type: 'fixed_date', trigger_config: { date: '2030-02-30' } },
      { event_type: 'fixed_date', trigger_config: { date: '2030/01/01' } },
      { event_type: 'fixed_date', trigger_config: { date: '2030-01-01', month: 1, day: 1 } },
      { event_type: 'holiday', trigger_config: { month: 13, day: 1, name: 'X' } },
      { event_type: 'holiday', trigger_config: { month: 4, day: 31, name: 'X' } },
      { event_type: 'anniversary', trigger_config: { years: [0] } },
      { event_type: 'rule_based', milestone_rules: [{ ecard_ids: [ecardIds[0]] }] },
      { event_type: 'rule_based', milestone_rules: [{ after_years: 1, after_days: 3 }] },
      { event_type: 'rule_based', milestone_rules: [{ after_days: -3 }] },
      { event_type: 'rule_based', trigger_config: { milestone_rules: [{ after_months: 1, after_days: 1 }] } },
      { selected_ecard_ids: [-1] },
      { selected_member_ids: ['7'] },
      { from_email: 'not-an-email' },
      { trigger_config: 'birthday' },
      { gift_card: { product_id: 'x', amount: -1 } },
    ];
    for (const fields of bad) {
      const res = await save({ ...base, ...fields });
      expectFailure(res, 400, 'invalid_parameter');
    }
    expect(await count()).to.equal(0);
    // 29 February is a valid yearly date; flags take 1/0 and their strings.
    const leap = await saved({ ...base, event_type: 'holiday', trigger_config: { month: 2, day: 29, name: 'Leap' }, gift_card_enabled: '0', timing_config: { send_time: '23:59', timezone: 'UTC', skip_weekends: 'true' } });
    expect(leap).to.deep.include({ trigger_config: { month: 2, day: 29, name: 'Leap' }, gift_card_enabled: false });
    expect((leap.timing_config as Json).skip_weekends).to.equal(true);
  });

  it('ids that are not the account’s are 404 on save, with nothing saved (all checked before any write)', async () => {
    const other = await newAccount(stack.models);
    const theirWidget = await insertWidget(stack.models, other.accountId);
    const theirEcard = await insertEcard(stack.models, other.accountId, theirWidget.id);
    const theirMember = await member({}, other.accountId);
    const theirDept = await stack.models.Department.create({ account_id: other.accountId, name: 'Ops', name_key: 'ops' });
    const campaignWidget = await insertWidget(stack.models, account.accountId, { is_campaign: true });
    const copy = await insertEcard(stack.models, account.accountId, campaignWidget.id);
    const mine = await member();
    const base = { automation_name: 'X', event_type: 'rule_based' };
    const refused: Json[] = [
      { selected_ecard_ids: [ecardIds[0], theirEcard.id] },
      { selected_ecard_ids: [999_999_999] },
      { selected_ecard_ids: [copy.id] },
      { milestone_rules: [{ after_days: 10, ecard_ids: [theirEcard.id] }] },
      { selected_member_ids: [mine.id, theirMember.id] },
      { selected_department_ids: [theirDept.id] },
      { notification_segment: { member_ids: [theirMember.id] } },
      { notification_segment: { department_ids: [theirDept.id] } },
    ];
    for (const fields of refused) {
      const res = await save({ ...base, selected_member_ids: [mine.id], ...fields });
      expectFailure(res, 404, 'not_found');
    }
    const several = expectFailure(await save({ ...base, selected_ecard_ids: [theirEcard.id], selected_department_ids: [theirDept.id] }), 404, 'not_found');
    expect(several).to.have.length(2);
    expect(await count()).to.equal(0);
    expect(await stack.models.AutomationEcard.count({ where: { account_id: account.accountId } })).to.equal(0);

    const id = (await saved({ ...base, automation_name: 'Mine', selected_ecard_ids: [ecardIds[0]] })).id as number;
    for (const fields of refused) expectFailure(await save({ id, automation_name: 'Changed', selected_ecard_ids: [ecardIds[1]], ...fields }), 404, 'not_found');
    const after = await findOne(id);
    expect(after).to.deep.include({ automation_name: 'Mine', selected_ecard_ids: [ecardIds[0]], selected_member_ids: [] });
  });

  it('enabling validates the whole configuration: 422 automation_incomplete naming each missing item', async () => {
    const missingOf = async (automation: Json) => {
      const res = await save(automation);
      const messages = expectFailure(res, 422, 'automation_incomplete');
      expect(messages).to.have.length((res.body.missing as string[]).length);
      return res.body.missing as string[];
    };
    expect(await missingOf({ automation_name: 'X', event_type: 'birthday', enabled: true })).to.deep.equal([
      'at least one enabled eCard (selected_ecard_ids)', 'timing_config.send_time', 'timing_config.timezone', 'from_email',
    ]);
    const ready = complete();
    expect(await missingOf({ ...ready, event_type: 'holiday', enabled: 1 })).to.deep.equal(['trigger_config.month', 'trigger_config.day', 'trigger_config.name']);
    expect(await missingOf({ ...ready, event_type: 'holiday', trigger_config: { month: 1, day: 2 }, enabled: 1 })).to.deep.equal(['trigger_config.name']);
    expect(await missingOf({ ...ready, event_type: 'fixed_date', enabled: true })).to.deep.equal(['trigger_config.date (or trigger_config.month and trigger_config.day)']);
    expect(await missingOf({ ...ready, event_type: 'fixed_date', trigger_config: { date: isoDay(-2) }, enabled: true })).to.deep.equal([
      `a one-time date not past (trigger_config.date ${isoDay(-2)} has passed)`,
    ]);
    expect(await missingOf({ ...ready, event_type: 'onboarding', enabled: true })).to.deep.equal(['trigger_config.days_after_hire']);
    expect(await missingOf({ ...ready, event_type: 'custom_field', enabled: true })).to.deep.equal(['trigger_config.field']);
    const inactive = await stack.models.CustomField.create({ account_id: account.accountId, field_key: 'visa', label: 'Visa', active: false });
    expect(await missingOf({ ...ready, event_type: 'custom_field', trigger_config: { field: 'visa' }, enabled: true })).to.deep.equal([
      'an active custom date field for trigger_config.field ("visa" is not one)',
    ]);
    expect(await missingOf({ ...ready, event_type: 'rule_based', trigger_config: { date_field: 'visa' }, enabled: true })).to.deep.equal([
      'milestone_rules', 'an active custom date field for trigger_config.date_field ("visa" is not one)',
    ]);
    // A disabled eCard does not count; gift cards on need a gift.
    await stack.models.Ecard.update({ disabled: true }, { where: { id: ecardIds[0] } });
    expect(await missingOf({ ...ready, enabled: true })).to.deep.equal(['at least one enabled eCard (selected_ecard_ids)']);
    expect(await missingOf({ ...ready, selected_ecard_ids: [ecardIds[1]], gift_card_enabled: true, enabled: true })).to.deep.equal(['gift_card (gift_card_enabled is on)']);
    expect(await count()).to.equal(0);

    // Complete configurations of each kind can be enabled; rule_based may rely on its rules' own eCards.
    await inactive.update({ active: true });
    const ok2 = { ...ready, selected_ecard_ids: [ecardIds[1]], enabled: true };
    for (const fields of [
      { event_type: 'holiday', trigger_config: { month: 1, day: 2, name: 'New year' } },
      { event_type: 'fixed_date', trigger_config: { date: isoDay(3) } },
      { event_type: 'fixed_date', trigger_config: { month: 6, day: 1 } },
      { event_type: 'custom_field', trigger_config: { field: 'visa' } },
      { event_type: 'rule_based', trigger_config: { date_field: 'visa' }, selected_ecard_ids: [], milestone_rules: [{ after_months: 6, ecard_ids: [ecardIds[1]] }] },
      { event_type: 'onboarding', trigger_config: { days_after_hire: 0 } },
      { event_type: 'anniversary', trigger_config: { years: [5] }, selected_ecard_ids: [], milestone_rules: [{ after_years: 5, ecard_ids: [ecardIds[1]] }] },
    ]) {
      expect((await saved({ ...ok2, ...fields })).enabled).to.equal(true);
    }
    // An anniversary with years its rules do not cover needs selected eCards.
    expect(await missingOf({ ...ok2, event_type: 'anniversary', selected_ecard_ids: [], milestone_rules: [{ after_years: 5, ecard_ids: [ecardIds[1]] }] }))
      .to.deep.equal(['at least one enabled eCard (selected_ecard_ids)']);
  });

  it('toggle sets enabled (never flips), moves the watermark only when turning on; save with id and enabled is the same', async () => {
    const automation = complete();
    const created = await saved(automation);
    const id = created.id as number;
    expect(created.enabled).to.equal(false);
    expect((await row(id)).watermark).to.equal(null);
    const timing = automation.timing_config as { send_time: string; timezone: string };

    const on = await ok('POST', '/automation/toggle', { automation: { id, enabled: true } });
    expect(on.enabled).to.equal(true);
    expect((await row(id)).watermark).to.equal(lastPassedDate(new Date(), timing.send_time, timing.timezone));
    // Setting it again keeps it on and leaves the watermark alone (only turning on moves it).
    await stack.models.Automation.update({ watermark: '2020-01-01' }, { where: { id } });
    expect((await ok('POST', '/automation/toggle', { automation: { id, enabled: '1' } })).enabled).to.equal(true);
    expect((await row(id)).watermark).to.equal('2020-01-01');
    const off = await ok('POST', '/automation/toggle', { automation: { id, enabled: false } });
    expect(off).to.deep.include({ enabled: false, next_firings: [] });
    expect((await ok('POST', '/automation/toggle', { automation: { id, enabled: 0 } })).enabled).to.equal(false);
    expect((await row(id)).watermark).to.equal('2020-01-01');
    // save with only id and enabled: the toggle.
    expect((await saved({ id, enabled: 'true' })).enabled).to.equal(true);
    expect((await row(id)).watermark).to.equal(lastPassedDate(new Date(), timing.send_time, timing.timezone));

    // Any save of an enabled automation validates; a refusal changes nothing.
    const res = await save({ id, from_email: '', automation_name: 'Renamed' });
    expect(expectFailure(res, 422, 'automation_incomplete')).to.deep.equal([`Automation ${id} needs from_email to be enabled`]);
    expect(await findOne(id)).to.deep.include({ automation_name: 'Birthdays', from_email: 'hr@example.com', enabled: true });
    // Disabling in the same save needs nothing.
    expect(await saved({ id, from_email: '', enabled: false })).to.deep.include({ enabled: false, from_email: null });
    // Enabling an incomplete one: 422, still disabled.
    expectFailure(await api('POST', '/automation/toggle', { automation: { id, enabled: true } }), 422, 'automation_incomplete');
    expect((await row(id)).enabled).to.equal(false);

    expectFailure(await api('POST', '/automation/toggle', { automation: { id } }), 422, 'missing_field');
    expectFailure(await api('POST', '/automation/toggle', { automation: { id, enabled: 'maybe' } }), 400, 'invalid_parameter');
    expectFailure(await api('POST', '/automation/toggle', { automation: { id: 999_999_999, enabled: true } }), 404, 'not_found');
    expectFailure(await api('POST', '/automation/toggle', { id, enabled: true }), 422, 'missing_field');
  });

  it('findOne shows the next 30 days of firings of an enabled automation ([] while disabled)', async () => {
    const soon = await member({ date_of_birth: `1992-${isoDay(5).slice(5)}` });
    await member({ date_of_birth: `1992-${isoDay(45).slice(5)}` });
    await member({ date_of_birth: `1992-${isoDay(7).slice(5)}`, disabled: true });
    const id = (await saved(complete())).id as number;
    expect((await findOne(id)).next_firings).to.deep.equal([]);
    const enabled = await ok('POST', '/automation/toggle', { automation: { id, enabled: true } });
    const firings = enabled.next_firings as Json[];
    expect(firings).to.have.length(1);
    expect(firings[0]).to.deep.include({ local_date: isoDay(5) });
    // Without recipient_timezone every card goes at the firing's instant, in the automation's zone.
    const placed = { zone: 'UTC', send_at: firings[0]!.send_at };
    expect(firings[0]!.occasions).to.deep.equal([
      { member_id: soon.id, name: 'Pat Lee', email: soon.email, event: 'birthday', occasion_date: isoDay(5), ecard_id: ecardIds[0], ...placed },
    ]);
    expect((await findOne(id)).next_firings).to.deep.equal(firings);
    const listed = expectSuccess(await api('GET', '/automation/list')) as Json[];
    expect(listed[0]!.next_firings).to.deep.equal(firings);
    // Without directory: view, no names or emails.
    const noDirectory = await newKey(stack.models, account.accountId, { automations: 'view' });
    const seen = await ok('GET', `/automation/findOne/id/${id}`, undefined, noDirectory.key);
    expect((seen.next_firings as Array<{ occasions: Json[] }>)[0]!.occasions[0]).to.deep.equal({ member_id: soon.id, event: 'birthday', occasion_date: isoDay(5), ecard_id: ecardIds[0], ...placed });
  });

  it('gift cards: a create needs a gc_automation_enable token without resource, enabling one for the automation (else 403 requires_otp)', async () => {
    const gift = { gift_card_enabled: true, gift_card: { product_id: 'manual:amazon:25', amount: 25 } };
    const token = async (resourceId: string | null) => (await issueToken(stack, { accountId: account.accountId, purpose: 'gc_automation_enable', resourceId, now: new Date() })).token;
    const refusedCreate = await save({ automation_name: 'Gifts', event_type: 'birthday', ...gift });
    expectFailure(refusedCreate, 403, 'confirmation_required');
    expect(refusedCreate.body).to.deep.include({ requires_otp: true, otp_purpose: 'gc_automation_enable' });
    expectFailure(await save({ automation_name: 'Gifts', event_type: 'birthday', ...gift }, { gc_confirmation_token: await token('1') }), 403, 'confirmation_required');
    expect(await count()).to.equal(0);
    // 422 comes before 403: an incomplete enabled create is refused for what it lacks, the token unspent.
    const createToken = await token(null);
    expectFailure(await save({ automation_name: 'Gifts', event_type: 'birthday', enabled: true, ...gift }, { gc_confirmation_token: createToken }), 422, 'automation_incomplete');
    const created = await saved({ ...complete(), ...gift }, { gc_confirmation_token: createToken });
    const id = created.id as number;
    expect(created).to.deep.include({ gift_card_enabled: true, enabled: false });
    // Spent: a second create with it is refused.
    expectFailure(await save({ ...complete(), ...gift }, { gc_confirmation_token: createToken }), 403, 'confirmation_required');
    // Edits while disabled need none.
    expect((await saved({ id, automation_name: 'Gift birthdays' })).automation_name).to.equal('Gift birthdays');

    // Enabling needs a token for this automation: none, a resource-less one, or another automation's are refused.
    const refused = await api('POST', '/automation/toggle', { automation: { id, enabled: true } });
    expectFailure(refused, 403, 'confirmation_required');
    expect(refused.body).to.deep.include({ requires_otp: true, otp_purpose: 'gc_automation_enable' });
    expectFailure(await api('POST', '/automation/toggle', { automation: { id, enabled: true }, gc_confirmation_token: await token(null) }), 403, 'confirmation_required');
    expectFailure(await api('POST', '/automation/toggle', { automation: { id, enabled: true }, gc_confirmation_token: await token(String(id + 1)) }), 403, 'confirmation_required');
    expect((await row(id)).enabled).to.equal(false);
    // 404 comes first: another account's automation with a valid token.
    const other = await newAccount(stack.models);
    expectFailure(await api('POST', '/automation/toggle', { automation: { id, enabled: true }, gc_confirmation_token: await token(String(id)) }, other.liveKey), 404, 'not_found');
    expect((await ok('POST', '/automation/toggle', { automation: { id, enabled: true }, gc_confirmation_token: await token(String(id)) })).enabled).to.equal(true);
    // Saving it while enabled needs none; turning gifts off and on again while enabled needs one.
    expect((await saved({ id, automation_name: 'Gifts again' })).automation_name).to.equal('Gifts again');
    expect((await saved({ id, gift_card_enabled: false })).gift_card_enabled).to.equal(false);
    expectFailure(await save({ id, gift_card_enabled: true }), 403, 'confirmation_required');
    expect((await row(id)).gift_card_enabled).to.equal(false);
    expect((await saved({ id, gift_card_enabled: true }, { gc_confirmation_token: await token(String(id)) })).gift_card_enabled).to.equal(true);
    // Turning gifts on in a disabled automation needs none (enabling it later will).
    const plain = (await saved(complete())).id as number;
    expect((await saved({ id: plain, ...gift })).gift_card_enabled).to.equal(true);
  });

  /** An enabled anniversary automation with a gift card, made with a token without resource. */
  const giftAutomation = async () => {
    const token = async (resourceId: string | null) => (await issueToken(stack, { accountId: account.accountId, purpose: 'gc_automation_enable', resourceId, now: new Date() })).token;
    const [m1, m2] = [await member(), await member()];
    const dept = await stack.models.Department.create({ account_id: account.accountId, name: 'Sales', name_key: 'sales' });
    const rules = [{ after_years: 5, ecard_ids: [ecardIds[1]], messages: ['Five years!'] }];
    const created = await saved(
      {
        ...complete({ event_type: 'anniversary', trigger_config: { years: [1, 5] }, selected_member_ids: [m1.id, m2.id], milestone_rules: rules }),
        gift_card_enabled: true, gift_card: { product_id: 'manual:amazon:25', amount: 25 }, enabled: true,
      },
      { gc_confirmation_token: await token(null) },
    );
    const id = created.id as number;
    expect(created).to.deep.include({ enabled: true, gift_card_enabled: true, event_type: 'anniversary' });
    /** What a refused save must leave as it was: the row and its eCard references. */
    const stored = async () => ({
      row: (await row(id)).get({ plain: true }),
      refs: (await stack.models.AutomationEcard.findAll({ where: { automation_id: id }, order: [['id', 'ASC']] })).map((r) => r.get({ plain: true })),
    });
    return { token, m1, m2, dept, rules, id, stored };
  };

  describe('an enabled gift-card automation', () => {
    // The steps of one flow, in order, on the account its first it got (the outer beforeEach makes one per it).
    let flow: { account: TestAccount; ecardIds: number[]; run: Awaited<ReturnType<typeof giftAutomation>> } | undefined;
    beforeEach(async () => {
      flow ??= { account, ecardIds, run: await giftAutomation() };
      ({ account, ecardIds } = flow);
    });

    it('changing its gift, event type, trigger, audience or milestones needs a token for it (403 requires_otp, nothing written)', async () => {
      const { token, m1, dept, rules, id, stored } = flow!.run;
      // Each gated field: refused without a token (and with a resource-less one), nothing written; accepted with one for it.
      const changes: Array<[string, Json, (a: Json) => void]> = [
        ['gift_card', { gift_card: { product_id: 'manual:amazon:25', amount: 30 } }, (a) => expect(a.gift_card).to.deep.equal({ product_id: 'manual:amazon:25', amount: 30 })],
        ['trigger_config', { trigger_config: { years: [1, 5, 10] } }, (a) => expect(a.trigger_config).to.deep.equal({ years: [1, 5, 10] })],
        ['selected_member_ids', { selected_member_ids: [m1.id] }, (a) => expect(a.selected_member_ids).to.deep.equal([m1.id])],
        ['selected_department_ids', { selected_department_ids: [dept.id] }, (a) => expect(a.selected_department_ids).to.deep.equal([dept.id])],
        ['milestone_rules', { milestone_rules: [{ ...rules[0], messages: ['Half a decade!'] }] }, (a) => expect((a.milestone_rules as Json[])[0]!.messages).to.deep.equal(['Half a decade!'])],
        ['event_type', { event_type: 'rule_based', trigger_config: {} }, (a) => expect(a.event_type).to.equal('rule_based')],
      ];
      for (const [field, change, check] of changes) {
        const before = await stored();
        const refused = await save({ id, automation_name: `Renamed for ${field}`, ...change });
        expect(expectFailure(refused, 403, 'confirmation_required')[0], field).to.include(field);
        expect(refused.body, field).to.deep.include({ requires_otp: true, otp_purpose: 'gc_automation_enable' });
        expectFailure(await save({ id, ...change }, { gc_confirmation_token: await token(null) }), 403, 'confirmation_required');
        expect(await stored(), `${field}: nothing written`).to.deep.equal(before);
        const accepted = await saved({ id, ...change }, { gc_confirmation_token: await token(String(id)) });
        check(accepted);
        expect(accepted.enabled).to.equal(true);
      }
    });

    it('the values it already has (ids in another order) or a rename need no token', async () => {
      const { id } = flow!.run;
      // A rename, or sending the values it already has (ids in another order), needs none.
      const current = await findOne(id);
      const same: Json = {
        id, automation_name: 'Gift milestones', event_type: current.event_type, trigger_config: current.trigger_config, gift_card: current.gift_card,
        selected_member_ids: [...(current.selected_member_ids as number[])].reverse(), selected_department_ids: current.selected_department_ids,
        milestone_rules: current.milestone_rules,
      };
      expect((await saved(same)).automation_name).to.equal('Gift milestones');
      expect((await saved({ id, automation_name: 'Renamed', from_name: 'HR' })).automation_name).to.equal('Renamed');
    });

    it('a token is spent once: reused for another change, it is refused with nothing written', async () => {
      const { token, m1, m2, id, stored } = flow!.run;
      // A token is spent once: reused for another change, refused with nothing written.
      const once = await token(String(id));
      expect((await saved({ id, selected_member_ids: [m1.id, m2.id] }, { gc_confirmation_token: once })).selected_member_ids).to.deep.equal([m1.id, m2.id]);
      const before = await stored();
      expectFailure(await save({ id, selected_member_ids: [m2.id] }, { gc_confirmation_token: once }), 403, 'confirmation_required');
      expect(await stored()).to.deep.equal(before);
    });

    it('disabled, it changes freely; enabling it again needs a token', async () => {
      const { id, m2 } = flow!.run;
      // Disabled, it changes freely (enabling again needs a token, as before).
      expect((await ok('POST', '/automation/toggle', { automation: { id, enabled: false } })).enabled).to.equal(false);
      expect((await saved({ id, gift_card: { product_id: 'manual:amazon:25', amount: 40 }, selected_member_ids: [m2.id] })).selected_member_ids).to.deep.equal([m2.id]);
      expectFailure(await api('POST', '/automation/toggle', { automation: { id, enabled: true } }), 403, 'confirmation_required');
    });
  });

  it('delete: 404 when unknown or another account’s, else 403 console_only with requires_otp and no otp_purpose', async () => {
    const id = (await saved({ automation_name: 'X', event_type: 'birthday' })).id as number;
    const refused = await api('POST', '/automation/delete', { id });
    expectFailure(refused, 403, 'console_only');
    expect(refused.body.requires_otp).to.equal(true);
    expect(refused.body).not.to.have.property('otp_purpose');
    expectFailure(await api('POST', '/automation/delete', { id: 999_999_999 }), 404, 'not_found');
    const other = await newAccount(stack.models);
    expectFailure(await api('POST', '/automation/delete', { id }, other.liveKey), 404, 'not_found');
    expectFailure(await api('POST', '/automation/delete', { id: 'x' }), 400, 'invalid_parameter');
    expectFailure(await api('POST', '/automation/delete', {}), 422, 'missing_field');
    expect(await count()).to.equal(1);
  });

  it('notification eCards: save, get and delete per type, with aliases; 404 for foreign ids with nothing saved', async () => {
    const id = (await saved({ automation_name: 'X', event_type: 'birthday' })).id as number;
    expect(await ok('POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'manager', ecardIds })).to.deep.equal({
      automation_id: id, notification_type: 'manager', ecard_ids: ecardIds,
    });
    expect(await ok('POST', '/automation/saveNotificationEcards', { automationId: id, notification_type: 'segment', ecardids: [ecardIds[1]] })).to.deep.equal({
      automation_id: id, notification_type: 'segment', ecard_ids: [ecardIds[1]],
    });
    expect(await ok('POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'manager', ecardIDs: [ecardIds[1]] })).to.deep.equal({
      automation_id: id, notification_type: 'manager', ecard_ids: [ecardIds[1]],
    });
    expect(await ok('GET', `/automation/getNotificationEcards?id=${id}&notification_type=manager`)).to.deep.equal({ automation_id: id, notification_type: 'manager', ecard_ids: [ecardIds[1]] });
    expect(await ok('GET', `/automation/getNotificationEcards?automation_id=${id}&notification_type=department`)).to.deep.equal({ automation_id: id, notification_type: 'department', ecard_ids: [] });
    expect((await findOne(id)).notification_ecards).to.deep.equal({ manager: [ecardIds[1]], department: [], segment: [ecardIds[1]] });
    // A save of the automation's selected eCards leaves the notification ones alone.
    await saved({ id, selected_ecard_ids: [ecardIds[0]] });
    expect((await findOne(id)).notification_ecards).to.deep.equal({ manager: [ecardIds[1]], department: [], segment: [ecardIds[1]] });

    const other = await newAccount(stack.models);
    const theirWidget = await insertWidget(stack.models, other.accountId);
    const theirs = await insertEcard(stack.models, other.accountId, theirWidget.id);
    expectFailure(await api('POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'manager', ecardIds: [ecardIds[0], theirs.id] }), 404, 'not_found');
    expectFailure(await api('POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'manager', ecardIds: [] }), 422, 'missing_field');
    expectFailure(await api('POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'boss', ecardIds }), 400, 'invalid_parameter');
    expectFailure(await api('POST', '/automation/saveNotificationEcards', { automation_id: id, ecardIds }), 422, 'missing_field');
    expectFailure(await api('GET', `/automation/getNotificationEcards?id=${id}&notification_type=everyone`), 400, 'invalid_parameter');
    expectFailure(await api('GET', `/automation/getNotificationEcards?id=${id}`), 422, 'missing_field');
    expect((await findOne(id)).notification_ecards).to.deep.equal({ manager: [ecardIds[1]], department: [], segment: [ecardIds[1]] });

    expect(await ok('POST', '/automation/deleteNotificationEcards', { automation_id: id, notification_type: 'segment' })).to.deep.equal({ deleted: ['segment'] });
    expect(await ok('POST', '/automation/deleteNotificationEcards', { automation_id: id, notification_type: 'segment' })).to.deep.equal({ deleted: [] });
    await ok('POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'department', ecardIds: [ecardIds[0]] });
    expect(await ok('POST', '/automation/deleteNotificationEcards', { automationId: id })).to.deep.equal({ deleted: ['manager', 'department'] });
    expect((await findOne(id)).notification_ecards).to.deep.equal({ manager: [], department: [], segment: [] });
  });

  it('list: keyword on name, from-name and from-email, eventType, status, sortBy and sortOrder, paging in meta', async () => {
    const make = async (automation_name: string, event_type: string, extra: Json = {}) => (await saved({ automation_name, event_type, ...extra })).id as number;
    const a = await make('Alpha birthdays', 'birthday', { from_name: 'People Team' });
    const b = await make('Beta 100%', 'holiday', { from_email: 'joy@corp.example.com' });
    const c = await make('Gamma', 'anniversary');
    const d = await make('Delta', 'birthday', complete({ automation_name: 'Delta', enabled: true }));
    const ids = async (query: string) => {
      const res = await api('GET', `/automation/list${query}`);
      return { ids: (expectSuccess(res) as Json[]).map((x) => x.id), meta: res.body.meta };
    };
    expect(await ids('')).to.deep.equal({ ids: [d, c, b, a], meta: { page: 1, perPage: 20, total: 4, totalPages: 1 } });
    expect((await ids('?keyword=people')).ids).to.deep.equal([a]);
    expect((await ids('?keyword=CORP.example')).ids).to.deep.equal([b]);
    expect((await ids('?keyword=100%25')).ids).to.deep.equal([b]);
    expect((await ids('?keyword=_')).ids).to.deep.equal([]);
    expect((await ids('?eventType=birthday')).ids).to.deep.equal([d, a]);
    expect((await ids('?event_type=holiday')).ids).to.deep.equal([b]);
    expect((await ids('?status=enabled')).ids).to.deep.equal([d]);
    expect((await ids('?status=disabled&sortOrder=asc')).ids).to.deep.equal([a, b, c]);
    expect((await ids('?status=all&sortBy=name&sortOrder=asc')).ids).to.deep.equal([a, b, d, c]);
    expect((await ids('?sortBy=event_type&sortOrder=asc')).ids).to.deep.equal([c, a, d, b]);
    expect(await ids('?perPage=3&page=2')).to.deep.equal({ ids: [a], meta: { page: 2, perPage: 3, total: 4, totalPages: 2 } });
    for (const query of ['?status=on', '?sortBy=id', '?sortOrder=up', '?perPage=101', '?page=0', '?eventType=xmas']) {
      expectFailure(await api('GET', `/automation/list${query}`), 400, 'invalid_parameter');
    }
  });

  it('scopes: reads need automations: view, writes and toggle need manage', async () => {
    const id = (await saved({ automation_name: 'X', event_type: 'birthday' })).id as number;
    const viewer = await newKey(stack.models, account.accountId, { automations: 'view' });
    const none = await newKey(stack.models, account.accountId, { campaigns: 'manage', directory: 'manage' });
    const preview = { trigger_type: 'birthday', timing_config: { send_time: '09:00', timezone: 'UTC' } };
    const reads: Array<[string, string, unknown?]> = [
      ['GET', '/automation/list'],
      ['GET', `/automation/findOne/id/${id}`],
      ['GET', `/automation/getNotificationEcards?id=${id}&notification_type=manager`],
      ['POST', '/automation/previewTrigger', preview],
    ];
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/automation/save', { automation: { id, automation_name: 'Y' } }],
      ['POST', '/automation/toggle', { automation: { id, enabled: false } }],
      ['POST', '/automation/delete', { id }],
      ['POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'manager', ecardIds }],
      ['POST', '/automation/deleteNotificationEcards', { automation_id: id }],
    ];
    for (const [method, path, body] of reads) {
      expectSuccess(await api(method, path, body, viewer.key));
      expectFailure(await api(method, path, body, none.key), 403, 'key_out_of_scope');
    }
    for (const [method, path, body] of writes) {
      expectFailure(await api(method, path, body, viewer.key), 403, 'key_out_of_scope');
      expectFailure(await api(method, path, body, none.key), 403, 'key_out_of_scope');
    }
    expect((await findOne(id)).automation_name).to.equal('X');
  });

  it('another account’s automation is 404 on every route, with nothing changed', async () => {
    const id = (await saved(complete())).id as number;
    await ok('POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'manager', ecardIds });
    const other = await newAccount(stack.models);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/automation/findOne/id/${id}`],
      ['POST', '/automation/save', { automation: { id, automation_name: 'Theirs' } }],
      ['POST', '/automation/toggle', { automation: { id, enabled: true } }],
      ['POST', '/automation/delete', { id }],
      ['POST', '/automation/previewTrigger', { trigger_type: 'birthday', timing_config: { send_time: '09:00', timezone: 'UTC' }, automation_id: id }],
      ['POST', '/automation/saveNotificationEcards', { automation_id: id, notification_type: 'manager', ecardIds: [ecardIds[0]] }],
      ['GET', `/automation/getNotificationEcards?id=${id}&notification_type=manager`],
      ['POST', '/automation/deleteNotificationEcards', { automation_id: id }],
    ];
    for (const [method, path, body] of calls) expectFailure(await api(method, path, body, other.liveKey), 404, 'not_found');
    expect(expectSuccess(await api('GET', '/automation/list', undefined, other.liveKey))).to.deep.equal([]);
    const after = await findOne(id);
    expect(after).to.deep.include({ automation_name: 'Birthdays', enabled: false });
    expect(after.notification_ecards).to.deep.equal({ manager: ecardIds, department: [], segment: [] });
  });
});
