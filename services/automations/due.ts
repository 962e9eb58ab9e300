// Which automation occasions go out in a window of send dates: the one pure function a firing (find-due
// activity) and previewTrigger share, so a preview shows exactly what a firing would send. No I/O, no clock.
import {
  addDays, addMonths, addYears, clampedDate, compareDates, parseLocalDate, weekday,
  type DateParts, type LocalDate, type SendTime,
} from './local-date.ts';

// One import for callers: the zone bridge and calendar helpers live beside this file.
export {
  addDays, addMonths, addYears, clampedDate, compareDates, lastPassedDate, localDateOf, sendInstant, weekday,
  type LocalDate, type SendTime,
} from './local-date.ts';

export type EventType = 'birthday' | 'anniversary' | 'holiday' | 'fixed_date' | 'custom_field' | 'rule_based' | 'onboarding';

export interface TimingConfig {
  send_time: SendTime;
  timezone: string;
  days_before?: number;
  skip_weekends?: boolean;
  /** send_time in each member's zone (one Schedule per zone in use); false or absent: in `timezone` for all. */
  recipient_timezone?: boolean;
}

/** Exactly one of the offsets; a rule with none or several is refused on save, and ignored here. */
export interface MilestoneRule {
  after_years?: number;
  after_months?: number;
  after_days?: number;
  ecard_ids?: readonly number[];
  messages?: readonly string[];
}

export type Trigger =
  | { event_type: 'birthday'; trigger_config?: Readonly<Record<string, unknown>> }
  | { event_type: 'anniversary'; trigger_config: { years?: readonly number[] } }
  | { event_type: 'holiday'; trigger_config: { month: number; day: number; name: string } }
  | { event_type: 'fixed_date'; trigger_config: { date: LocalDate } | { month: number; day: number } }
  | { event_type: 'custom_field'; trigger_config: { field: string } }
  | { event_type: 'rule_based'; trigger_config: { date_field?: string } }
  | { event_type: 'onboarding'; trigger_config: { days_after_hire: number } };

export type DueConfig = Trigger & { timing_config: TimingConfig; milestone_rules?: readonly MilestoneRule[] };

/** Scope and active filtering happen before; custom_dates is keyed by the custom field's key. */
export interface DueMember {
  id: number;
  date_of_birth: LocalDate | null;
  hire_date: LocalDate | null;
  custom_dates: Readonly<Record<string, LocalDate>>;
}

export interface Occasion {
  member_id: number;
  event: EventType;
  occasion_date: LocalDate;
  send_date: LocalDate;
  /** The year of the occasion (yearly) or its date (one-time): unique per automation and member. */
  occurrence_key: string;
  years?: number;
  /** Index in milestone_rules of the rule whose eCards and messages this occasion uses. */
  milestone_index?: number;
}

/** Send dates after `from` up to and including `to`. */
export interface DateWindow {
  from: LocalDate;
  to: LocalDate;
}

export interface FiringWindow extends DateWindow {
  /** When set, send dates in (missedFrom, from] are recorded `missed`, not sent. */
  missedFrom: LocalDate | null;
}

const CATCH_UP_DAYS = 3;
// skip_weekends moves a send date back at most two more days (Sunday → Friday).
const WEEKEND_PULL_DAYS = 2;

/**
 * What a firing for local date D handles: (W, D] with W = max(watermark, D − 3 days). A watermark older than
 * that leaves a missed range; none (never set) reads as D − 3. A watermark already at or past D (a late,
 * catch-up firing) gives the empty window (D, D].
 */
export function firingWindow(watermark: LocalDate | null, firingDate: LocalDate): FiringWindow {
  const floor = addDays(firingDate, -CATCH_UP_DAYS);
  if (watermark !== null && compareDates(watermark, floor) < 0) return { from: floor, to: firingDate, missedFrom: watermark };
  const from = watermark === null ? floor : compareDates(watermark, firingDate) > 0 ? firingDate : watermark;
  return { from, to: firingDate, missedFrom: null };
}

/** S = O − days_before, a Saturday or Sunday moved to the Friday before when skip_weekends is on. */
export function sendDateOf(occasionDate: LocalDate, timing: TimingConfig): LocalDate {
  const send = addDays(occasionDate, -(timing.days_before ?? 0));
  if (!timing.skip_weekends) return send;
  const day = weekday(send);
  return day === 6 ? addDays(send, -1) : day === 0 ? addDays(send, -2) : send;
}

// An occasion before the send-date and hire-date checks.
type Candidate = Omit<Occasion, 'member_id' | 'event' | 'send_date'>;

function yearly(month: number, day: number, years: readonly number[]): Candidate[] {
  return years.map((year) => ({ occasion_date: clampedDate(year, month, day), occurrence_key: String(year) }));
}

// The returns of a member's own date, `years` after it; fewer than `minYears` do not count.
function returnsOf(base: LocalDate | null | undefined, years: readonly number[], minYears: number): (Candidate & { years: number })[] {
  if (!base) return [];
  const start: DateParts = parseLocalDate(base);
  return yearly(start.month, start.day, years)
    .map((candidate) => ({ ...candidate, years: Number(candidate.occurrence_key) - start.year }))
    .filter((candidate) => candidate.years >= minYears);
}

const oneTime = (date: LocalDate): Candidate => ({ occasion_date: date, occurrence_key: date });

function milestoneDate(base: LocalDate, rule: MilestoneRule): LocalDate | null {
  const { after_years: years, after_months: months, after_days: days } = rule;
  if ([years, months, days].filter((offset) => offset !== undefined).length !== 1) return null;
  if (years !== undefined) return addYears(base, years);
  return months !== undefined ? addMonths(base, months) : addDays(base, days ?? 0);
}

// rule_based: each rule is a one-time occasion keyed by its date. Two rules landing on the same date for a member
// would share a key (one row), so the first rule wins there. A date of birth never turns into an age.
function milestones(config: DueConfig & { event_type: 'rule_based' }, member: DueMember): Candidate[] {
  const field = config.trigger_config.date_field ?? 'hire_date';
  const base = field === 'hire_date' ? member.hire_date : field === 'date_of_birth' ? member.date_of_birth : member.custom_dates[field];
  if (!base) return [];
  const seen = new Set<LocalDate>();
  const found: Candidate[] = [];
  (config.milestone_rules ?? []).forEach((rule, index) => {
    const date = milestoneDate(base, rule);
    if (date === null || seen.has(date)) return;
    seen.add(date);
    const years = rule.after_years !== undefined && field !== 'date_of_birth' ? { years: rule.after_years } : {};
    found.push({ ...oneTime(date), ...years, milestone_index: index });
  });
  return found;
}

function candidatesOf(config: DueConfig, member: DueMember, years: readonly number[]): Candidate[] {
  switch (config.event_type) {
    case 'birthday':
      // A birthday never exposes the year of birth or the age: `years` is dropped.
      return returnsOf(member.date_of_birth, years, 1).map(({ occasion_date, occurrence_key }) => ({ occasion_date, occurrence_key }));
    case 'anniversary': {
      const only = config.trigger_config.years;
      const rules = config.milestone_rules ?? [];
      return returnsOf(member.hire_date, years, 1)
        .filter((candidate) => !only?.length || only.includes(candidate.years))
        .map((candidate) => {
          const index = rules.findIndex((rule) => rule.after_years === candidate.years);
          return index < 0 ? candidate : { ...candidate, milestone_index: index };
        });
    }
    case 'custom_field':
      // The field's own date counts (an upcoming event fires on it); `years` only from the first return on.
      return returnsOf(member.custom_dates[config.trigger_config.field], years, 0)
        .map(({ years: count, ...candidate }) => (count > 0 ? { ...candidate, years: count } : candidate));
    case 'holiday':
      return yearly(config.trigger_config.month, config.trigger_config.day, years);
    case 'fixed_date': {
      const trigger = config.trigger_config;
      return 'date' in trigger ? [oneTime(trigger.date)] : yearly(trigger.month, trigger.day, years);
    }
    case 'rule_based':
      return milestones(config, member);
    case 'onboarding':
      return member.hire_date ? [oneTime(addDays(member.hire_date, config.trigger_config.days_after_hire))] : [];
  }
}

/**
 * The occasions whose send date falls in `window`, sorted by send date, then member. Yearly occasions are
 * tried in every year their date could have a send date in the window (O ∈ (from, to + days_before + 2]),
 * so a window in December finds a January occasion sent early.
 *
 * "Hire date not in the future" is read against the occasion: a member hired after O is skipped (not yet
 * with the team on the day), whatever the firing day. That keeps a preview and a late firing in agreement,
 * and lets onboarding and anniversaries (O ≥ hire date by construction) send days_before the start date.
 * Members without a hire date pass for the event types that do not need one.
 */
export function dueOccasions(config: DueConfig, members: readonly DueMember[], window: DateWindow): Occasion[] {
  if (compareDates(window.from, window.to) >= 0) return [];
  const last = addDays(window.to, (config.timing_config.days_before ?? 0) + WEEKEND_PULL_DAYS);
  const years: number[] = [];
  for (let year = parseLocalDate(addDays(window.from, 1)).year; year <= parseLocalDate(last).year; year++) years.push(year);
  const found: Occasion[] = [];
  for (const member of members) {
    for (const candidate of candidatesOf(config, member, years)) {
      if (member.hire_date && compareDates(member.hire_date, candidate.occasion_date) > 0) continue;
      const send = sendDateOf(candidate.occasion_date, config.timing_config);
      if (compareDates(send, window.from) <= 0 || compareDates(send, window.to) > 0) continue;
      found.push({ member_id: member.id, event: config.event_type, ...candidate, send_date: send });
    }
  }
  return found.sort((a, b) => compareDates(a.send_date, b.send_date) || a.member_id - b.member_id
    || compareDates(a.occasion_date, b.occasion_date));
}

/** A notification for an occasion goes out at the firing of S − notify_days_before. */
export function notificationSendDate(sendDate: LocalDate, notifyDaysBefore: number): LocalDate {
  return addDays(sendDate, -notifyDaysBefore);
}

export type NotifiedOccasion = Occasion & { notification_date: LocalDate };

/** The occasions whose notification date falls in `window`: the same search, shifted by the notice. */
export function occasionsToNotify(config: DueConfig, members: readonly DueMember[], window: DateWindow, notifyDaysBefore: number): NotifiedOccasion[] {
  const shifted = { from: addDays(window.from, notifyDaysBefore), to: addDays(window.to, notifyDaysBefore) };
  return dueOccasions(config, members, shifted)
    .map((occasion) => ({ ...occasion, notification_date: notificationSendDate(occasion.send_date, notifyDaysBefore) }));
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th: the `years_ordinal` tag. */
export function ordinal(n: number): string {
  const lastTwo = Math.abs(n) % 100;
  const suffix = lastTwo >= 11 && lastTwo <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][lastTwo % 10] ?? 'th');
  return `${n}${suffix}`;
}
