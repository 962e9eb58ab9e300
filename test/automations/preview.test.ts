// previewTrigger through HTTP: each event type over known members in a fixed window (`from`, `days`), timing
// (zones, DST, days_before, skip_weekends), an automation's scope and eCards, names and emails only with
// directory: view, the default start, refusals; nothing is saved.
import { expect } from 'chai';
import type { TeamMember } from '../../models/TeamMember.ts';
import { pickIndex } from '../../services/automations/draw.ts';
import { findDue } from '../../services/automations/find-due.ts';
import { sendInstant } from '../../services/automations/local-date.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;
type Firing = { local_date: string; send_at: string; occasions: Json[] };
const addDay = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('automations: previewTrigger', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let account: TestAccount;
  let ecardIds: number[];
  let ann: TeamMember;
  let bob: TeamMember;
  let dan: TeamMember;
  let eve: TeamMember;
  let counter = 0;

  before(async () => {
    stack = await testStack();
  });

  const member = (fields: Partial<TeamMember>, accountId = account.accountId) =>
    stack.models.TeamMember.create({
      account_id: accountId, email: `v${process.pid}-${++counter}@preview.example.com`, employee_id: null, first_name: null, last_name: null, job_position: null,
      date_of_birth: null, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null, ...fields,
    });

  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId);
    ecardIds = [(await insertEcard(stack.models, account.accountId, widget.id, { name: 'A' })).id, (await insertEcard(stack.models, account.accountId, widget.id, { name: 'B' })).id];
    ann = await member({ first_name: 'Ann', last_name: 'Archer', date_of_birth: '1990-03-10', hire_date: '2020-03-05' });
    bob = await member({ first_name: 'Bob', date_of_birth: '1985-03-31', hire_date: '2031-03-02' });
    dan = await member({ first_name: 'Dan' });
    eve = await member({ first_name: 'Eve', hire_date: '2031-01-31' });
    await member({ first_name: 'Cat', date_of_birth: '1990-03-10', hire_date: '2019-01-01', disabled: true });
    const visa = await stack.models.CustomField.create({ account_id: account.accountId, field_key: 'visa', label: 'Visa' });
    await stack.models.MemberCustomValue.create({ member_id: ann.id, field_id: visa.id, value: '2025-03-20' });
    await stack.models.CustomField.create({ account_id: account.accountId, field_key: 'old', label: 'Old', active: false });
  });

  const { api } = apiClient(() => stack, () => account.liveKey);
  const utc = { send_time: '09:00', timezone: 'UTC' };
  const preview = async (body: Json, key = account.liveKey) => {
    const data = expectSuccess(await api('POST', '/automation/previewTrigger', { from: '2031-03-01', days: 30, timing_config: utc, ...body }, key)) as { timezone: string; firings: Firing[] };
    return data;
  };
  const firings = async (body: Json, key = account.liveKey) => (await preview(body, key)).firings;
  /** firings as `local_date: member:occasion_date[:years] ...` lines, for compact expectations. */
  const lines = async (body: Json) =>
    (await firings(body)).map((f) => `${f.local_date}: ${f.occasions.map((o) => [o.member_id, o.occasion_date, ...(o.years === undefined ? [] : [o.years])].join(':')).join(' ')}`);
  const whole = (m: TeamMember, name: string) => ({ member_id: m.id, name, email: m.email });

  it('birthday: the date of birth’s return, never the age; names and emails for a key that reads the directory', async () => {
    const data = await preview({ trigger_type: 'birthday' });
    expect(data).to.deep.equal({
      timezone: 'UTC',
      firings: [
        {
          local_date: '2031-03-10',
          send_at: '2031-03-10T09:00:00.000Z',
          occasions: [{ ...whole(ann, 'Ann Archer'), event: 'birthday', occasion_date: '2031-03-10', zone: 'UTC', send_at: '2031-03-10T09:00:00.000Z' }],
        },
      ],
    });
    // One more day reaches Bob's birthday (the window is from .. from + days - 1).
    expect(await lines({ trigger_type: 'birthday', days: 31 })).to.deep.equal([`2031-03-10: ${ann.id}:2031-03-10`, `2031-03-31: ${bob.id}:2031-03-31`]);
    expect(await lines({ trigger_type: 'birthday', from: '2031-03-11', days: 20 })).to.deep.equal([]);
    expect(await lines({ trigger_type: 'birthday', from: '2031-03-10', days: 1 })).to.deep.equal([`2031-03-10: ${ann.id}:2031-03-10`]);
    // event_type is the alias of trigger_type.
    expect(await lines({ event_type: 'birthday' })).to.deep.equal([`2031-03-10: ${ann.id}:2031-03-10`]);

    const noDirectory = await newKey(stack.models, account.accountId, { automations: 'view' });
    expect((await firings({ trigger_type: 'birthday' }, noDirectory.key))[0]!.occasions).to.deep.equal([{ member_id: ann.id, event: 'birthday', occasion_date: '2031-03-10', zone: 'UTC', send_at: '2031-03-10T09:00:00.000Z' }]);
    const withDirectory = await newKey(stack.models, account.accountId, { automations: 'view', directory: 'view' });
    expect((await firings({ trigger_type: 'birthday' }, withDirectory.key))[0]!.occasions[0]).to.deep.include({ name: 'Ann Archer', email: ann.email });
  });

  it('timing: the zone’s wall clock across a DST change, days_before and skip_weekends', async () => {
    // 2031-03-09 is the first day of daylight time in Los Angeles: 09:00 is 17:00Z before, 16:00Z after.
    const la = { send_time: '09:00', timezone: 'America/Los_Angeles' };
    expect((await preview({ trigger_type: 'birthday', timing_config: la })).firings.map((f) => [f.local_date, f.send_at])).to.deep.equal([['2031-03-10', '2031-03-10T16:00:00.000Z']]);
    // One day before a Monday is a Sunday: moved to the Friday, in standard time.
    const early = await preview({ trigger_type: 'birthday', timing_config: { ...la, days_before: 1, skip_weekends: true }, days: 20 });
    expect(early.timezone).to.equal('America/Los_Angeles');
    expect(early.firings.map((f) => [f.local_date, f.send_at, f.occasions[0]!.occasion_date])).to.deep.equal([['2031-03-07', '2031-03-07T17:00:00.000Z', '2031-03-10']]);
    // East of UTC the send instant is the evening before in UTC.
    const auckland = await preview({ trigger_type: 'birthday', timing_config: { send_time: '08:30', timezone: 'Pacific/Auckland' } });
    expect(auckland.firings.map((f) => [f.local_date, f.send_at])).to.deep.equal([['2031-03-10', '2031-03-09T19:30:00.000Z']]);
  });

  it('anniversary: the hire date’s returns with years, only the listed years, milestone eCards through an automation', async () => {
    expect(await lines({ trigger_type: 'anniversary' })).to.deep.equal([`2031-03-05: ${ann.id}:2031-03-05:11`]);
    expect(await lines({ trigger_type: 'anniversary', trigger_config: { years: [5, 10] } })).to.deep.equal([]);
    expect(await lines({ trigger_type: 'anniversary', trigger_config: { years: [11] } })).to.deep.equal([`2031-03-05: ${ann.id}:2031-03-05:11`]);

    const automation = expectSuccess(await call(stack.url, 'POST', '/v2/api/automation/save', {
      key: account.liveKey,
      body: { automation: { automation_name: 'Anniversaries', event_type: 'anniversary', selected_ecard_ids: [ecardIds[0]] } },
    })) as Json;
    const base = { trigger_type: 'anniversary', automation_id: automation.id };
    expect((await firings(base))[0]!.occasions[0]).to.deep.include({ member_id: ann.id, years: 11, ecard_id: ecardIds[0] });
    // A rule for year 11 gives that year its own eCards (the alias trigger_config.milestone_rules).
    const ruled = await firings({ ...base, trigger_config: { milestone_rules: [{ after_years: 11, ecard_ids: [ecardIds[1]] }] } });
    expect(ruled[0]!.occasions[0]).to.deep.include({ member_id: ann.id, years: 11, ecard_id: ecardIds[1] });
    // Two eCards: the one the claim would draw for (automation, member, occurrence key); a rule whose eCards are
    // all disabled has none to send (the claim fails that row rather than fall back).
    await call(stack.url, 'POST', '/v2/api/automation/save', { key: account.liveKey, body: { automation: { id: automation.id, selected_ecard_ids: ecardIds } } });
    const drawn = ecardIds[pickIndex(automation.id as number, ann.id, '2031', 2)];
    expect((await firings(base))[0]!.occasions[0]).to.deep.include({ ecard_id: drawn });
    await stack.models.Ecard.update({ disabled: true }, { where: { id: ecardIds[1] } });
    expect((await firings({ ...base, milestone_rules: [{ after_years: 11, ecard_ids: [ecardIds[1]] }] }))[0]!.occasions[0]).not.to.have.property('ecard_id');
    expect((await firings(base))[0]!.occasions[0]).to.deep.include({ ecard_id: ecardIds[0] });
    // Without an automation there is no eCard to show.
    expect((await firings({ trigger_type: 'anniversary', milestone_rules: [{ after_years: 11, ecard_ids: [ecardIds[1]] }] }))[0]!.occasions[0]).not.to.have.property('ecard_id');
  });

  it('holiday and fixed_date go to every active member in scope; skip_weekends moves a Saturday to Friday', async () => {
    const everyone = (date: string, send = date) => `${send}: ${[ann, bob, dan, eve].map((m) => `${m.id}:${date}`).join(' ')}`;
    expect(await lines({ trigger_type: 'holiday', trigger_config: { month: 3, day: 15, name: 'Ides' } })).to.deep.equal([everyone('2031-03-15')]);
    expect(await lines({ trigger_type: 'holiday', trigger_config: { month: 3, day: 15, name: 'Ides' }, timing_config: { ...utc, skip_weekends: '1' } }))
      .to.deep.equal([everyone('2031-03-15', '2031-03-14')]);
    expect(await lines({ trigger_type: 'fixed_date', trigger_config: { date: '2031-03-20' } })).to.deep.equal([everyone('2031-03-20')]);
    expect(await lines({ trigger_type: 'fixed_date', trigger_config: { date: '2032-03-20' } })).to.deep.equal([]);
    expect(await lines({ trigger_type: 'fixed_date', trigger_config: { month: 3, day: 20 }, timing_config: { ...utc, days_before: 10 } }))
      .to.deep.equal([everyone('2031-03-20', '2031-03-10')]);
    // A member hired after the occasion is not with the team yet.
    expect(await lines({ trigger_type: 'holiday', trigger_config: { month: 3, day: 1, name: 'First' } })).to.deep.equal([`2031-03-01: ${[ann, dan, eve].map((m) => `${m.id}:2031-03-01`).join(' ')}`]);
  });

  it('an automation’s scope: its members and its departments’ members (all active members when both are empty)', async () => {
    const dept = await stack.models.Department.create({ account_id: account.accountId, name: 'Sales', name_key: 'sales' });
    await stack.models.MemberDepartment.create({ member_id: bob.id, department_id: dept.id });
    const save = async (automation: Json) => (expectSuccess(await call(stack.url, 'POST', '/v2/api/automation/save', { key: account.liveKey, body: { automation } })) as Json).id;
    const scoped = await save({ automation_name: 'Scoped', event_type: 'holiday', selected_member_ids: [ann.id], selected_department_ids: [dept.id] });
    const all = await save({ automation_name: 'All', event_type: 'holiday' });
    const holiday = { trigger_type: 'holiday', trigger_config: { month: 3, day: 15, name: 'Ides' } };
    expect(await lines({ ...holiday, automation_id: scoped })).to.deep.equal([`2031-03-15: ${ann.id}:2031-03-15 ${bob.id}:2031-03-15`]);
    expect((await lines({ ...holiday, automation_id: all }))[0]!.split(' ')).to.have.length(5);
    expectFailure(await api('POST', '/automation/previewTrigger', { ...holiday, timing_config: utc, automation_id: 999_999_999 }), 404, 'not_found');
  });

  it('custom_field, rule_based and onboarding read the members’ own dates', async () => {
    expect(await lines({ trigger_type: 'custom_field', trigger_config: { field: 'visa' } })).to.deep.equal([`2031-03-20: ${ann.id}:2031-03-20:6`]);
    const inactive = await api('POST', '/automation/previewTrigger', { trigger_type: 'custom_field', trigger_config: { field: 'old' }, timing_config: utc });
    expectFailure(inactive, 422, 'unknown_custom_field');
    expectFailure(await api('POST', '/automation/previewTrigger', { trigger_type: 'rule_based', trigger_config: { date_field: 'nope' }, milestone_rules: [{ after_days: 1 }], timing_config: utc }), 422, 'unknown_custom_field');

    const rules = [{ after_days: 7 }, { after_years: 11 }, { after_months: 1 }];
    expect(await lines({ trigger_type: 'rule_based', milestone_rules: rules })).to.deep.equal([`2031-03-05: ${ann.id}:2031-03-05:11`, `2031-03-09: ${bob.id}:2031-03-09`]);
    // Months clamp to the month's end: 31 January + 1 month = 28 February.
    expect(await lines({ trigger_type: 'rule_based', trigger_config: { date_field: 'hire_date', milestone_rules: rules }, from: '2031-02-20', days: 9 }))
      .to.deep.equal([`2031-02-28: ${eve.id}:2031-02-28`]);
    expect(await lines({ trigger_type: 'rule_based', trigger_config: { date_field: 'visa' }, milestone_rules: [{ after_years: 6 }] })).to.deep.equal([`2031-03-20: ${ann.id}:2031-03-20:6`]);
    // From a date of birth a milestone never shows an age.
    expect(await lines({ trigger_type: 'rule_based', trigger_config: { date_field: 'date_of_birth' }, milestone_rules: [{ after_years: 41 }] })).to.deep.equal([`2031-03-10: ${ann.id}:2031-03-10`]);

    expect(await lines({ trigger_type: 'onboarding', trigger_config: { days_after_hire: 7 } })).to.deep.equal([`2031-03-09: ${bob.id}:2031-03-09`]);
    expect(await lines({ trigger_type: 'onboarding', trigger_config: { days_after_hire: 7 }, from: '2031-02-01', days: 10 })).to.deep.equal([`2031-02-07: ${eve.id}:2031-02-07`]);
  });

  it('recipient_timezone: each card at send_time in its member’s zone (none: the automation’s), as the firing places it, in previewTrigger and next_firings', async () => {
    const fresh = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, fresh.accountId);
    const ecard = await insertEcard(stack.models, fresh.accountId, widget.id);
    // D: five days ahead (UTC), inside the forecast's 30 days and after every zone's 09:00 of today.
    const d = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const people = {
      'Asia/Tokyo': await member({ first_name: 'Tae', date_of_birth: `1990-${d.slice(5)}`, timezone: 'Asia/Tokyo' }, fresh.accountId),
      'America/New_York': await member({ first_name: 'Ned', date_of_birth: `1991-${d.slice(5)}`, timezone: 'America/New_York' }, fresh.accountId),
      'Europe/Berlin': await member({ first_name: 'Zed', date_of_birth: `1992-${d.slice(5)}`, timezone: null }, fresh.accountId),
    };
    const timing = { send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: true };
    const expected = Object.entries(people).map(([zone, m]) => ({ member_id: m.id, zone, send_at: sendInstant(d, '09:00', zone).toISOString() }));
    const placed = (list: Firing[]) =>
      list.flatMap((f) => f.occasions).map((o) => ({ member_id: o.member_id, zone: o.zone, send_at: o.send_at })).sort((a, b) => Number(a.member_id) - Number(b.member_id));

    const previewed = expectSuccess(await call(stack.url, 'POST', '/v2/api/automation/previewTrigger', { key: fresh.liveKey, body: { trigger_type: 'birthday', timing_config: timing } })) as { firings: Firing[] };
    expect(placed(previewed.firings)).to.deep.equal(expected);
    const saved = expectSuccess(await call(stack.url, 'POST', '/v2/api/automation/save', {
      key: fresh.liveKey,
      body: { automation: { automation_name: 'Zones', event_type: 'birthday', from_email: 'hr@example.com', selected_ecard_ids: [ecard.id], timing_config: timing, enabled: true } },
    })) as { id: number };
    const found = expectSuccess(await call(stack.url, 'GET', `/v2/api/automation/findOne/id/${saved.id}`, { key: fresh.liveKey })) as { next_firings: Firing[] };
    expect(placed(found.next_firings)).to.deep.equal(expected);

    // The firing's own find step, once per zone (each zone's Schedule fires at 09:00 there on D): the rows it plans.
    for (const zone of Object.keys(people)) {
      await findDue(stack.services, { accountId: fresh.accountId, automationId: saved.id, firingDate: d, window: { from: addDay(d, -1), to: d, missedFrom: null }, at: sendInstant(d, '09:00', zone).toISOString(), zone });
    }
    const rows = await stack.models.AutomationSend.findAll({ where: { automation_id: saved.id, kind: 'card' }, order: [['member_id', 'ASC']] });
    expect(rows.map((r) => ({ member_id: r.member_id, zone: r.zone, send_at: r.send_at?.toISOString() }))).to.deep.equal(expected);
  });

  it('starts by default at the next date whose send time has not passed; days up to 90', async () => {
    const fresh = await newAccount(stack.models);
    const today = new Date().toISOString().slice(0, 10);
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const m = await member({ first_name: 'Tom', date_of_birth: `1992-${soon.slice(5)}` }, fresh.accountId);
    await member({ first_name: 'Una', date_of_birth: `1992-${new Date(Date.now() + 40 * 86_400_000).toISOString().slice(5, 10)}` }, fresh.accountId);
    const data = expectSuccess(await call(stack.url, 'POST', '/v2/api/automation/previewTrigger', {
      key: fresh.liveKey, body: { trigger_type: 'birthday', timing_config: utc },
    })) as { firings: Firing[] };
    expect(data.firings.map((f) => [f.local_date, f.occasions.map((o) => o.member_id)])).to.deep.equal([[soon, [m.id]]]);
    expect(data.firings[0]!.local_date > today).to.equal(true);
    const longer = expectSuccess(await call(stack.url, 'POST', '/v2/api/automation/previewTrigger', {
      key: fresh.liveKey, body: { trigger_type: 'birthday', timing_config: utc, days: 90 },
    })) as { firings: Firing[] };
    expect(longer.firings).to.have.length(2);
  });

  it('refusals: 400 for types and ranges, 422 for what the trigger needs, 404 for foreign eCards; nothing is saved', async () => {
    const body = { trigger_type: 'birthday', timing_config: utc };
    for (const bad of [
      { days: 91 }, { days: 0 }, { days: '30' }, { from: '2031-02-30' }, { from: '01/03/2031' }, { trigger_type: 'xmas' },
      { timing_config: { ...utc, timezone: 'Nowhere/Land' } }, { timing_config: { ...utc, send_time: '9am' } }, { timing_config: { ...utc, days_before: 61 } },
      { trigger_type: 'onboarding', trigger_config: { days_after_hire: 400 } }, { trigger_type: 'holiday', trigger_config: { month: 2, day: 30, name: 'X' } },
      { trigger_type: 'rule_based', milestone_rules: [{ after_days: 1, after_months: 1 }] },
      { trigger_type: 'fixed_date', trigger_config: { date: '2031-01-01', month: 1, day: 1 } },
    ]) {
      expectFailure(await api('POST', '/automation/previewTrigger', { ...body, ...bad }), 400, 'invalid_parameter');
    }
    for (const [bad, message] of [
      [{ trigger_type: undefined }, 'trigger_type is required'],
      [{ timing_config: undefined }, 'timing_config is required'],
      [{ timing_config: { timezone: 'UTC' } }, 'timing_config.send_time is required'],
      [{ timing_config: { send_time: '09:00' } }, 'timing_config.timezone is required'],
      [{ trigger_type: 'holiday', trigger_config: { month: 3, day: 1 } }, 'trigger_config.name is required for holiday'],
      [{ trigger_type: 'rule_based' }, 'milestone_rules is required for rule_based'],
      [{ trigger_type: 'onboarding' }, 'trigger_config.days_after_hire is required for onboarding'],
    ] as Array<[Json, string]>) {
      expect(expectFailure(await api('POST', '/automation/previewTrigger', { ...body, ...bad }), 422, 'missing_field')).to.deep.equal([message]);
    }
    const other = await newAccount(stack.models);
    const theirWidget = await insertWidget(stack.models, other.accountId);
    const theirs = await insertEcard(stack.models, other.accountId, theirWidget.id);
    expectFailure(await api('POST', '/automation/previewTrigger', { ...body, trigger_type: 'rule_based', milestone_rules: [{ after_days: 1, ecard_ids: [theirs.id] }] }), 404, 'not_found');
    expect(await stack.models.Automation.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await stack.models.AutomationSend.count({ where: { account_id: account.accountId } })).to.equal(0);
  });
});
