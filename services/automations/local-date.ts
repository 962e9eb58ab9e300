// Calendar dates as `YYYY-MM-DD` strings, and the bridge between them and instants in an automation's zone.
// Pure: every "now" is a parameter, so a firing and previewTrigger compute the same answer.
import { localIso, zonedToInstant } from '../campaigns/schedule-time.ts';

/** A date on a wall calendar, no zone attached: `YYYY-MM-DD` (four-digit year). Sorts as a string. */
export type LocalDate = string;

/** A wall-clock time of day, `HH:mm` (24 h). */
export type SendTime = string;

export interface DateParts {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const SEND_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

// Day counts go through UTC midnight: UTC has no DST, so a day is always DAY_MS long there.
// setUTCFullYear, not Date.UTC: the latter maps years 0-99 to 1900-1999.
function utcMidnight({ year, month, day }: DateParts): number {
  return new Date(0).setUTCFullYear(year, month - 1, day);
}

function fromUtcMidnight(ms: number): LocalDate {
  return new Date(ms).toISOString().slice(0, 10);
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Throws on anything but a real calendar date: member dates come from DATEONLY columns, so a bad one is a bug. */
export function parseLocalDate(date: LocalDate): DateParts {
  const match = LOCAL_DATE.exec(date);
  const parts = match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null;
  if (!parts || parts.month < 1 || parts.month > 12 || parts.day < 1 || parts.day > daysInMonth(parts.year, parts.month)) {
    throw new RangeError(`not a YYYY-MM-DD calendar date: ${JSON.stringify(date)}`);
  }
  return parts;
}

/** The date `month`/`day` in `year`, the day clamped to the month's end (29 February → 28 in a common year). */
export function clampedDate(year: number, month: number, day: number): LocalDate {
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(day, daysInMonth(year, month)))}`;
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return fromUtcMidnight(utcMidnight(parseLocalDate(date)) + days * DAY_MS);
}

/** Calendar months, clamped to the target month's end: 31 January + 1 month = 28 (or 29) February. */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const { year, month, day } = parseLocalDate(date);
  const index = year * 12 + (month - 1) + months;
  return clampedDate(Math.floor(index / 12), (index % 12) + 1, day);
}

export function addYears(date: LocalDate, years: number): LocalDate {
  return addMonths(date, years * 12);
}

/** Negative, zero or positive, as for Array.prototype.sort. */
export function compareDates(a: LocalDate, b: LocalDate): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** 0 = Sunday … 6 = Saturday, as Date.prototype.getDay. */
export function weekday(date: LocalDate): number {
  return new Date(utcMidnight(parseLocalDate(date))).getUTCDay();
}

/** The local calendar date in `timeZone` at an instant. */
export function localDateOf(instant: Date, timeZone: string): LocalDate {
  return localIso(instant, timeZone).slice(0, 10);
}

function parseSendTime(sendTime: SendTime): { hour: number; minute: number } {
  const match = SEND_TIME.exec(sendTime);
  if (!match) throw new RangeError(`not an HH:mm send time: ${JSON.stringify(sendTime)}`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/**
 * When the firing for `localDate` goes out: `sendTime` on that date in `timeZone`. A time in a DST gap moves
 * forward by the gap and an ambiguous one takes the earlier instant (zonedToInstant's rules, as Temporal's).
 */
export function sendInstant(localDate: LocalDate, sendTime: SendTime, timeZone: string): Date {
  return zonedToInstant({ ...parseLocalDate(localDate), ...parseSendTime(sendTime), second: 0, millisecond: 0 }, timeZone);
}

/**
 * The last local date whose send time has passed at `now`: the watermark an enabling sets, so nothing up to
 * it is backfilled. A send time reached exactly at `now` counts as passed (no backfill of "now" either).
 */
export function lastPassedDate(now: Date, sendTime: SendTime, timeZone: string): LocalDate {
  const today = localDateOf(now, timeZone);
  return sendInstant(today, sendTime, timeZone).getTime() <= now.getTime() ? today : addDays(today, -1);
}
