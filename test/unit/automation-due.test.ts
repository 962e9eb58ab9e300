import { expect } from 'chai';
import {
  dueOccasions, firingWindow, notificationSendDate, occasionsToNotify, ordinal, sendDateOf,
  type DueConfig, type DueMember, type MilestoneRule, type Occasion, type TimingConfig,
} from '../../services/automations/due.ts';
import {
  addDays, addMonths, addYears, clampedDate, compareDates, lastPassedDate, localDateOf, parseLocalDate, sendInstant, weekday,
} from '../../services/automations/local-date.ts';

const timing = (extra: Partial<TimingConfig> = {}): TimingConfig => ({ send_time: '09:00', timezone: 'UTC', ...extra });

function member(id: number, dates: Partial<Omit<DueMember, 'id'>> = {}): DueMember {
  return { id, date_of_birth: null, hire_date: null, custom_dates: {}, ...dates };
}

// An expected occasion, written as `member_id occasion_date send_date occurrence_key` plus any extras.
function occ(event: Occasion['event'], line: string, extra: Partial<Occasion> = {}): Occasion {
  const [id, occasion, send, key] = line.split(' ');
  return { member_id: Number(id), event, occasion_date: occasion ?? '', send_date: send ?? '', occurrence_key: key ?? '', ...extra };
}

describe('automation due dates', () => {
  describe('calendar dates', () => {
    const cases: [string, () => unknown, unknown][] = [
      ['addDays across a year end', () => addDays('2026-12-30', 3), '2027-01-02'],
      ['addDays back into a leap February', () => addDays('2028-03-01', -1), '2028-02-29'],
      ['addDays back into a common February', () => addDays('2027-03-01', -1), '2027-02-28'],
      ['addMonths clamps 31 January to 28 February (2027)', () => addMonths('2027-01-31', 1), '2027-02-28'],
      ['addMonths clamps 31 January to 29 February (2028)', () => addMonths('2028-01-31', 1), '2028-02-29'],
      ['addMonths backwards clamps too', () => addMonths('2026-03-31', -1), '2026-02-28'],
      ['addMonths across a year end', () => addMonths('2026-11-30', 3), '2027-02-28'],
      ['addYears from 29 February lands on 28 February', () => addYears('2028-02-29', 1), '2029-02-28'],
      ['clampedDate 29 February in a common year', () => clampedDate(2027, 2, 29), '2027-02-28'],
      ['clampedDate 29 February in a leap year', () => clampedDate(2028, 2, 29), '2028-02-29'],
      ['clampedDate 29 February in 2100 (not leap)', () => clampedDate(2100, 2, 29), '2100-02-28'],
      ['compareDates before', () => compareDates('2026-12-31', '2027-01-01'), -1],
      ['compareDates equal', () => compareDates('2027-01-01', '2027-01-01'), 0],
      ['compareDates after', () => compareDates('2027-01-10', '2027-01-09'), 1],
      ['weekday of a Friday', () => weekday('2026-05-15'), 5],
      ['weekday of a Sunday', () => weekday('2026-05-17'), 0],
      ['parseLocalDate', () => parseLocalDate('2028-02-29'), { year: 2028, month: 2, day: 29 }],
    ];
    for (const [name, run, expected] of cases) it(name, () => expect(run()).to.deep.equal(expected));

    for (const bad of ['2027-02-29', '2026-13-01', '2026-00-10', '26-01-01', '2026-1-01', '']) {
      it(`parseLocalDate refuses ${JSON.stringify(bad)}`, () => expect(() => parseLocalDate(bad)).to.throw(RangeError));
    }
  });

  describe('zones', () => {
    const cases: [string, () => string, string][] = [
      ['localDateOf east of UTC is already tomorrow', () => localDateOf(new Date('2026-06-30T13:00:00Z'), 'Pacific/Auckland'), '2026-07-01'],
      ['localDateOf west of UTC is still yesterday', () => localDateOf(new Date('2026-07-01T05:00:00Z'), 'America/Los_Angeles'), '2026-06-30'],
      ['localDateOf in UTC', () => localDateOf(new Date('2026-07-01T05:00:00Z'), 'UTC'), '2026-07-01'],
      ['sendInstant in Auckland (NZST, +12)', () => sendInstant('2026-07-01', '09:00', 'Pacific/Auckland').toISOString(), '2026-06-30T21:00:00.000Z'],
      ['sendInstant in Los Angeles (PST, -8)', () => sendInstant('2026-01-15', '09:00', 'America/Los_Angeles').toISOString(), '2026-01-15T17:00:00.000Z'],
      ['sendInstant in a DST gap moves forward (02:30 → 03:30 PDT)', () => sendInstant('2026-03-08', '02:30', 'America/Los_Angeles').toISOString(), '2026-03-08T10:30:00.000Z'],
      ['sendInstant at an ambiguous time takes the earlier (02:30 NZDT)', () => sendInstant('2026-04-05', '02:30', 'Pacific/Auckland').toISOString(), '2026-04-04T13:30:00.000Z'],
      ['lastPassedDate before today’s send time is yesterday (LA)', () => lastPassedDate(new Date('2026-06-30T15:59:00Z'), '09:00', 'America/Los_Angeles'), '2026-06-29'],
      ['lastPassedDate at the send time is today (LA)', () => lastPassedDate(new Date('2026-06-30T16:00:00Z'), '09:00', 'America/Los_Angeles'), '2026-06-30'],
      ['lastPassedDate late evening is today (LA)', () => lastPassedDate(new Date('2026-07-01T05:00:00Z'), '09:00', 'America/Los_Angeles'), '2026-06-30'],
      ['lastPassedDate before the send time (Auckland)', () => lastPassedDate(new Date('2026-06-30T20:59:00Z'), '09:00', 'Pacific/Auckland'), '2026-06-30'],
      ['lastPassedDate at the send time (Auckland)', () => lastPassedDate(new Date('2026-06-30T21:00:00Z'), '09:00', 'Pacific/Auckland'), '2026-07-01'],
      ['lastPassedDate just before a gap send time', () => lastPassedDate(new Date('2026-03-08T10:29:00Z'), '02:30', 'America/Los_Angeles'), '2026-03-07'],
      ['lastPassedDate at a gap send time', () => lastPassedDate(new Date('2026-03-08T10:30:00Z'), '02:30', 'America/Los_Angeles'), '2026-03-08'],
      ['lastPassedDate just before an ambiguous send time', () => lastPassedDate(new Date('2026-04-04T13:29:00Z'), '02:30', 'Pacific/Auckland'), '2026-04-04'],
      ['lastPassedDate at the earlier ambiguous instant', () => lastPassedDate(new Date('2026-04-04T13:30:00Z'), '02:30', 'Pacific/Auckland'), '2026-04-05'],
    ];
    for (const [name, run, expected] of cases) it(name, () => expect(run()).to.equal(expected));

    it('sendInstant refuses a malformed send time', () => {
      for (const bad of ['9:00', '24:00', '09:60', '09:00:00']) expect(() => sendInstant('2026-01-15', bad, 'UTC')).to.throw(RangeError);
    });
  });

  describe('firingWindow', () => {
    const cases: [string, string | null, string, ReturnType<typeof firingWindow>][] = [
      ['no watermark: the last 3 days', null, '2026-05-10', { from: '2026-05-07', to: '2026-05-10', missedFrom: null }],
      ['an old watermark: 3 days, the rest missed', '2026-04-01', '2026-05-10', { from: '2026-05-07', to: '2026-05-10', missedFrom: '2026-04-01' }],
      ['a watermark exactly 3 days back: nothing missed', '2026-05-07', '2026-05-10', { from: '2026-05-07', to: '2026-05-10', missedFrom: null }],
      ['a recent watermark: from it', '2026-05-09', '2026-05-10', { from: '2026-05-09', to: '2026-05-10', missedFrom: null }],
      ['a watermark at D: empty', '2026-05-10', '2026-05-10', { from: '2026-05-10', to: '2026-05-10', missedFrom: null }],
      ['a watermark past D (late firing): empty', '2026-05-12', '2026-05-10', { from: '2026-05-10', to: '2026-05-10', missedFrom: null }],
      ['across a year end', null, '2027-01-02', { from: '2026-12-30', to: '2027-01-02', missedFrom: null }],
    ];
    for (const [name, watermark, firingDate, expected] of cases) {
      it(name, () => expect(firingWindow(watermark, firingDate)).to.deep.equal(expected));
    }
  });

  describe('sendDateOf', () => {
    const cases: [string, string, Partial<TimingConfig>, string][] = [
      ['no days_before: the occasion itself', '2026-05-20', {}, '2026-05-20'],
      ['days_before across a month end', '2026-03-02', { days_before: 3 }, '2026-02-27'],
      ['days_before across a year end', '2027-01-02', { days_before: 5 }, '2026-12-28'],
      ['skip_weekends: Saturday → Friday', '2026-05-16', { skip_weekends: true }, '2026-05-15'],
      ['skip_weekends: Sunday → Friday', '2026-05-17', { skip_weekends: true }, '2026-05-15'],
      ['skip_weekends: a Friday stays', '2026-05-15', { skip_weekends: true }, '2026-05-15'],
      ['skip_weekends: a Monday stays', '2026-05-18', { skip_weekends: true }, '2026-05-18'],
      ['skip_weekends applies to S, not O (Monday − 2 = Saturday → Friday)', '2026-05-18', { days_before: 2, skip_weekends: true }, '2026-05-15'],
      ['skip_weekends off: a Saturday stays', '2026-05-16', { skip_weekends: false }, '2026-05-16'],
    ];
    for (const [name, occasion, extra, expected] of cases) it(name, () => expect(sendDateOf(occasion, timing(extra))).to.equal(expected));
  });

  describe('dueOccasions', () => {
    const birthday = (extra: Partial<TimingConfig> = {}): DueConfig => ({ event_type: 'birthday', trigger_config: {}, timing_config: timing(extra) });
    const anniversary = (years?: number[], rules?: MilestoneRule[]): DueConfig => ({
      event_type: 'anniversary', trigger_config: years ? { years } : {}, timing_config: timing(), ...(rules ? { milestone_rules: rules } : {}),
    });
    const ruleBased = (rules: MilestoneRule[], dateField?: string): DueConfig => ({
      event_type: 'rule_based', trigger_config: dateField ? { date_field: dateField } : {}, timing_config: timing(), milestone_rules: rules,
    });
    const holiday = (month: number, day: number, extra: Partial<TimingConfig> = {}): DueConfig => ({
      event_type: 'holiday', trigger_config: { month, day, name: 'Holiday' }, timing_config: timing(extra),
    });

    const cases: { name: string; config: DueConfig; members: DueMember[]; window: [string, string]; expected: Occasion[] }[] = [
      // birthday
      { name: 'birthday: on the day, keyed by year, no years', config: birthday(), members: [member(1, { date_of_birth: '1990-05-20' })],
        window: ['2026-05-19', '2026-05-20'], expected: [occ('birthday', '1 2026-05-20 2026-05-20 2026')] },
      { name: 'birthday: the window start is exclusive', config: birthday(), members: [member(1, { date_of_birth: '1990-05-20' })],
        window: ['2026-05-20', '2026-05-25'], expected: [] },
      { name: 'birthday: the birth itself is not a birthday', config: birthday(), members: [member(1, { date_of_birth: '2026-05-20' })],
        window: ['2026-05-19', '2026-05-20'], expected: [] },
      { name: 'birthday: no date of birth, no occasion', config: birthday(), members: [member(1, { hire_date: '2020-05-20' })],
        window: ['2026-05-19', '2026-05-20'], expected: [] },
      { name: 'birthday: a window over two years finds both', config: birthday(), members: [member(1, { date_of_birth: '1990-05-20' })],
        window: ['2025-01-01', '2026-12-31'], expected: [occ('birthday', '1 2025-05-20 2025-05-20 2025'), occ('birthday', '1 2026-05-20 2026-05-20 2026')] },
      // 29 February
      { name: '29 February → 28 February in 2027', config: birthday(), members: [member(1, { date_of_birth: '2000-02-29' })],
        window: ['2027-02-27', '2027-02-28'], expected: [occ('birthday', '1 2027-02-28 2027-02-28 2027')] },
      { name: '29 February stays in 2028', config: birthday(), members: [member(1, { date_of_birth: '2000-02-29' })],
        window: ['2028-02-27', '2028-03-01'], expected: [occ('birthday', '1 2028-02-29 2028-02-29 2028')] },
      { name: '29 February anniversary → 28 February in 2027', config: anniversary(), members: [member(1, { hire_date: '2024-02-29' })],
        window: ['2027-02-27', '2027-02-28'], expected: [occ('anniversary', '1 2027-02-28 2027-02-28 2027', { years: 3 })] },
      { name: '29 February holiday → 28 February in 2027', config: holiday(2, 29), members: [member(1)],
        window: ['2027-02-27', '2027-02-28'], expected: [occ('holiday', '1 2027-02-28 2027-02-28 2027')] },
      // days_before
      { name: 'days_before across a month end', config: birthday({ days_before: 3 }), members: [member(1, { date_of_birth: '1990-03-02' })],
        window: ['2026-02-26', '2026-02-27'], expected: [occ('birthday', '1 2026-03-02 2026-02-27 2026')] },
      { name: 'days_before across a year end: a December window finds 2 January', config: birthday({ days_before: 5 }),
        members: [member(1, { date_of_birth: '1985-01-02' })], window: ['2026-12-01', '2026-12-31'],
        expected: [occ('birthday', '1 2027-01-02 2026-12-28 2027')] },
      { name: 'days_before across a year end: the January firing does not repeat it', config: birthday({ days_before: 5 }),
        members: [member(1, { date_of_birth: '1985-01-02' })], window: ['2026-12-31', '2027-01-31'], expected: [] },
      { name: 'holiday 1 January, 5 days before, weekends skipped: Sunday 27 → Friday 25 December', config: holiday(1, 1, { days_before: 5, skip_weekends: true }),
        members: [member(1)], window: ['2026-12-24', '2026-12-25'], expected: [occ('holiday', '1 2027-01-01 2026-12-25 2027')] },
      // skip_weekends
      { name: 'skip_weekends: Friday, Saturday and Sunday go on Friday; Monday stays', config: birthday({ skip_weekends: true }),
        members: [member(4, { date_of_birth: '1990-05-18' }), member(3, { date_of_birth: '1990-05-17' }), member(2, { date_of_birth: '1990-05-16' }), member(1, { date_of_birth: '1990-05-15' })],
        window: ['2026-05-14', '2026-05-18'],
        expected: [occ('birthday', '1 2026-05-15 2026-05-15 2026'), occ('birthday', '2 2026-05-16 2026-05-15 2026'),
          occ('birthday', '3 2026-05-17 2026-05-15 2026'), occ('birthday', '4 2026-05-18 2026-05-18 2026')] },
      // anniversary
      { name: 'anniversary: years since hire', config: anniversary(), members: [member(1, { hire_date: '2020-06-10' })],
        window: ['2026-06-09', '2026-06-10'], expected: [occ('anniversary', '1 2026-06-10 2026-06-10 2026', { years: 6 })] },
      { name: 'anniversary: year 0 (the hire date) is not one', config: anniversary(), members: [member(1, { hire_date: '2026-06-10' })],
        window: ['2026-06-09', '2026-06-10'], expected: [] },
      { name: 'anniversary: years outside the filter do not send', config: anniversary([5, 10]), members: [member(1, { hire_date: '2020-06-10' })],
        window: ['2026-06-09', '2026-06-10'], expected: [] },
      { name: 'anniversary: a year in the filter sends', config: anniversary([5, 6]), members: [member(1, { hire_date: '2020-06-10' })],
        window: ['2026-06-09', '2026-06-10'], expected: [occ('anniversary', '1 2026-06-10 2026-06-10 2026', { years: 6 })] },
      { name: 'anniversary: an empty filter is no filter', config: anniversary([]), members: [member(1, { hire_date: '2020-06-10' })],
        window: ['2026-06-09', '2026-06-10'], expected: [occ('anniversary', '1 2026-06-10 2026-06-10 2026', { years: 6 })] },
      { name: 'anniversary: the matching after_years rule gives its index', config: anniversary(undefined, [{ after_years: 10 }, { after_months: 72 }, { after_years: 6 }]),
        members: [member(1, { hire_date: '2020-06-10' }), member(2, { hire_date: '2021-06-10' })], window: ['2026-06-09', '2026-06-10'],
        expected: [occ('anniversary', '1 2026-06-10 2026-06-10 2026', { years: 6, milestone_index: 2 }), occ('anniversary', '2 2026-06-10 2026-06-10 2026', { years: 5 })] },
      // rule_based
      { name: 'rule_based: 31 January + 1 month → 28 February (2027)', config: ruleBased([{ after_months: 1 }]), members: [member(1, { hire_date: '2027-01-31' })],
        window: ['2027-02-27', '2027-02-28'], expected: [occ('rule_based', '1 2027-02-28 2027-02-28 2027-02-28', { milestone_index: 0 })] },
      { name: 'rule_based: 31 January + 1 month → 29 February (2028)', config: ruleBased([{ after_months: 1 }]), members: [member(1, { hire_date: '2028-01-31' })],
        window: ['2028-02-28', '2028-02-29'], expected: [occ('rule_based', '1 2028-02-29 2028-02-29 2028-02-29', { milestone_index: 0 })] },
      { name: 'rule_based: after_days, each rule its own one-time occasion', config: ruleBased([{ after_days: 30 }, { after_days: 90 }]),
        members: [member(1, { hire_date: '2026-01-05' })], window: ['2026-01-01', '2026-12-31'],
        expected: [occ('rule_based', '1 2026-02-04 2026-02-04 2026-02-04', { milestone_index: 0 }), occ('rule_based', '1 2026-04-05 2026-04-05 2026-04-05', { milestone_index: 1 })] },
      { name: 'rule_based: after_years gives years, once only', config: ruleBased([{ after_years: 1 }]), members: [member(1, { hire_date: '2025-03-10' })],
        window: ['2026-01-01', '2027-12-31'], expected: [occ('rule_based', '1 2026-03-10 2026-03-10 2026-03-10', { years: 1, milestone_index: 0 })] },
      { name: 'rule_based on date_of_birth: never the age', config: ruleBased([{ after_years: 50 }], 'date_of_birth'),
        members: [member(1, { date_of_birth: '1976-07-01', hire_date: '2020-01-01' })], window: ['2026-06-30', '2026-07-01'],
        expected: [occ('rule_based', '1 2026-07-01 2026-07-01 2026-07-01', { milestone_index: 0 })] },
      { name: 'rule_based on a custom date field', config: ruleBased([{ after_months: 6 }], 'visa'),
        members: [member(1, { custom_dates: { visa: '2026-01-15' } }), member(2)], window: ['2026-07-14', '2026-07-15'],
        expected: [occ('rule_based', '1 2026-07-15 2026-07-15 2026-07-15', { milestone_index: 0 })] },
      { name: 'rule_based: two rules on one date share its key, the first wins; a rule with two offsets is ignored',
        config: ruleBased([{ after_days: 1, after_months: 1 }, { after_days: 28 }, { after_months: 1 }]), members: [member(1, { hire_date: '2027-02-01' })],
        window: ['2027-02-01', '2027-03-31'], expected: [occ('rule_based', '1 2027-03-01 2027-03-01 2027-03-01', { milestone_index: 1 })] },
      // onboarding
      { name: 'onboarding: hire date + days_after_hire, keyed by date', config: { event_type: 'onboarding', trigger_config: { days_after_hire: 7 }, timing_config: timing() },
        members: [member(1, { hire_date: '2026-09-01' }), member(2)], window: ['2026-09-01', '2026-12-31'],
        expected: [occ('onboarding', '1 2026-09-08 2026-09-08 2026-09-08')] },
      { name: 'onboarding: days_before may send before the start date', config: { event_type: 'onboarding', trigger_config: { days_after_hire: 0 }, timing_config: timing({ days_before: 3 }) },
        members: [member(1, { hire_date: '2026-09-01' })], window: ['2026-08-28', '2026-08-29'],
        expected: [occ('onboarding', '1 2026-09-01 2026-08-29 2026-09-01')] },
      // custom_field
      { name: 'custom_field: yearly with years since the date', config: { event_type: 'custom_field', trigger_config: { field: 'cert' }, timing_config: timing() },
        members: [member(1, { custom_dates: { cert: '2020-10-15' } }), member(2, { custom_dates: { other: '2020-10-15' } })], window: ['2026-10-14', '2026-10-15'],
        expected: [occ('custom_field', '1 2026-10-15 2026-10-15 2026', { years: 6 })] },
      { name: 'custom_field: the date itself counts, without years', config: { event_type: 'custom_field', trigger_config: { field: 'cert' }, timing_config: timing() },
        members: [member(1, { custom_dates: { cert: '2026-10-15' } })], window: ['2026-10-14', '2026-10-15'],
        expected: [occ('custom_field', '1 2026-10-15 2026-10-15 2026')] },
      // fixed_date and holiday
      { name: 'fixed_date once: every member, keyed by the date', config: { event_type: 'fixed_date', trigger_config: { date: '2026-12-24' }, timing_config: timing() },
        members: [member(2), member(1, { date_of_birth: '1990-01-01' })], window: ['2026-12-01', '2026-12-31'],
        expected: [occ('fixed_date', '1 2026-12-24 2026-12-24 2026-12-24'), occ('fixed_date', '2 2026-12-24 2026-12-24 2026-12-24')] },
      { name: 'fixed_date once: not again the next year', config: { event_type: 'fixed_date', trigger_config: { date: '2026-12-24' }, timing_config: timing() },
        members: [member(1)], window: ['2027-12-01', '2027-12-31'], expected: [] },
      { name: 'fixed_date yearly: keyed by year', config: { event_type: 'fixed_date', trigger_config: { month: 12, day: 24 }, timing_config: timing() },
        members: [member(1)], window: ['2027-12-01', '2027-12-31'], expected: [occ('fixed_date', '1 2027-12-24 2027-12-24 2027')] },
      { name: 'holiday: every member, no dates needed', config: holiday(7, 4), members: [member(1), member(2)], window: ['2026-07-03', '2026-07-04'],
        expected: [occ('holiday', '1 2026-07-04 2026-07-04 2026'), occ('holiday', '2 2026-07-04 2026-07-04 2026')] },
      // hire date not in the future (of the occasion)
      { name: 'a member hired after the occasion is skipped; one hired on it or without a hire date is not', config: holiday(1, 1),
        members: [member(1, { hire_date: '2027-01-02' }), member(2, { hire_date: '2027-01-01' }), member(3)], window: ['2026-12-31', '2027-01-01'],
        expected: [occ('holiday', '2 2027-01-01 2027-01-01 2027'), occ('holiday', '3 2027-01-01 2027-01-01 2027')] },
      { name: 'a birthday before the hire date is skipped', config: birthday(), members: [member(1, { date_of_birth: '1990-05-20', hire_date: '2026-06-01' })],
        window: ['2026-05-19', '2026-05-20'], expected: [] },
      // windows
      { name: 'an empty window finds nothing', config: holiday(7, 4), members: [member(1)], window: ['2026-07-04', '2026-07-04'], expected: [] },
    ];
    for (const { name, config, members, window: [from, to], expected } of cases) {
      it(name, () => expect(dueOccasions(config, members, { from, to })).to.deep.equal(expected));
    }
  });

  describe('notifications', () => {
    it('notificationSendDate is S − notify_days_before, across a year end', () => {
      expect(notificationSendDate('2026-05-20', 7)).to.equal('2026-05-13');
      expect(notificationSendDate('2027-01-03', 5)).to.equal('2026-12-29');
      expect(notificationSendDate('2026-05-20', 0)).to.equal('2026-05-20');
    });

    it('occasionsToNotify finds the occasions whose notification date is in the window', () => {
      const config: DueConfig = { event_type: 'birthday', timing_config: timing({ days_before: 1 }) };
      const members = [member(1, { date_of_birth: '1990-05-21' }), member(2, { date_of_birth: '1990-05-22' })];
      expect(occasionsToNotify(config, members, { from: '2026-05-12', to: '2026-05-13' }, 7)).to.deep.equal([
        { ...occ('birthday', '1 2026-05-21 2026-05-20 2026'), notification_date: '2026-05-13' },
      ]);
    });
  });

  describe('ordinal', () => {
    const cases: [number, string][] = [
      [1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [10, '10th'], [11, '11th'], [12, '12th'], [13, '13th'],
      [21, '21st'], [22, '22nd'], [23, '23rd'], [25, '25th'], [100, '100th'], [101, '101st'], [102, '102nd'], [111, '111th'], [112, '112th'], [113, '113th'],
    ];
    for (const [n, expected] of cases) it(`${n} → ${expected}`, () => expect(ordinal(n)).to.equal(expected));
  });
});
