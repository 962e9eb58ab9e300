// A campaign's schedule time: `scheduled_at` read as an instant (offset or wall clock in `scheduled_timezone`), its window, its local form.
import { type ApiError, invalidParameter, scheduledAtPast, scheduledAtTooFar } from '../../lib/errors.ts';

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const DAY_MS = 86_400_000;
const MAX_AHEAD_MS = 366 * DAY_MS;
const SCHEDULED_AT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{3}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))?$/;

function badTimeZone(name: string): ApiError {
  return invalidParameter(`scheduled_timezone must be an IANA time zone name like Europe/Berlin, not ${JSON.stringify(name)}`);
}

// Canonical names seen (keyed by themselves only, so client spellings cannot grow it): Intl is slow to ask.
const canonicalNames = new Set<string>();

export function canonicalTimeZone(name: string): string {
  if (canonicalNames.has(name)) return name;
  // Raw offsets are refused even where Intl takes them: Temporal needs a zone name, and an offset has no DST.
  if (typeof name !== 'string' || name === '' || /^[+\-\u2212]/.test(name)) throw badTimeZone(String(name));
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat(undefined, { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw badTimeZone(name);
  }
  if (/^[+-]/.test(canonical)) throw badTimeZone(name);
  // Node's ICU resolves some current names to their older links (Asia/Kolkata → Asia/Calcutta); a name written
  // the IANA way (each part capitalized) that Intl accepts is kept as the client wrote it.
  const written = name.toLowerCase() !== canonical.toLowerCase() && /^[A-Z][A-Za-z_-]*(\/[A-Z][A-Za-z0-9_+-]*)+$/.test(name);
  if (canonical === name || written) canonicalNames.add(name);
  return written ? name : canonical;
}

// One formatter per zone: building them is the slow part of Intl.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

// Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not.
function utcMs(w: WallClock): number {
  return new Date(0).setUTCFullYear(w.year, w.month - 1, w.day) + ((w.hour * 60 + w.minute) * 60 + w.second) * 1000 + w.millisecond;
}

/** The zone's offset from UTC (ms, east positive) at an instant. */
function offsetMs(instant: number, timeZone: string): number {
  const parts: Record<string, string> = {};
  for (const { type, value } of formatter(timeZone).formatToParts(instant)) parts[type] = value;
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = utcMs({ year, month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second), millisecond: 0 });
  return wall - Math.floor(instant / 1000) * 1000; // Intl shows whole seconds
}

export function zonedToInstant(wallClock: WallClock, timeZone: string): Date {
  const local = utcMs(wallClock);
  // Offsets a day either side bracket any transition near this wall time (zones change at most once a day).
  const before = offsetMs(local - DAY_MS, timeZone);
  const after = offsetMs(local + DAY_MS, timeZone);
  const fits = [local - before, local - after].filter((candidate) => offsetMs(candidate, timeZone) === local - candidate);
  // Ambiguous (fall back): both fit, the earlier wins. Gap (spring forward): neither fits; reading it with the
  // offset in force before the gap lands the same distance past it (02:30 EST = 03:30 EDT), as Temporal's 'compatible'.
  return new Date(fits.length ? Math.min(...fits) : local - before);
}

/** The parts of a `scheduled_at` text, the wall clock checked (month 13, February 30, hour 25 refused). */
function readScheduledAt(input: string) {
  const bad = () => invalidParameter(`scheduled_at must look like YYYY-MM-DDTHH:mm[:ss[.SSS]] with an optional Z or ±HH:mm offset, not ${JSON.stringify(String(input).slice(0, 60))}`);
  const match = typeof input === 'string' ? SCHEDULED_AT.exec(input) : null;
  if (!match) throw bad();
  const [, y, mo, d, h, mi, s, ms, zulu, sign, oh, om] = match;
  const wall: WallClock = { year: Number(y), month: Number(mo), day: Number(d), hour: Number(h), minute: Number(mi), second: Number(s ?? 0), millisecond: Number(ms ?? 0) };
  // Round trip through a UTC date: catches month 13, February 30, hour 25 and friends in one check.
  const check = new Date(utcMs(wall));
  if (check.getUTCMonth() + 1 !== wall.month || check.getUTCDate() !== wall.day || check.getUTCHours() !== wall.hour
    || check.getUTCMinutes() !== wall.minute || check.getUTCSeconds() !== wall.second) throw bad();
  return { wall, check, zulu, sign, oh, om, bad };
}

/**
 * `scheduled_at` for `scheduled_timezone: "recipient"`: a wall-clock time read in each recipient's zone, so an
 * offset or `Z` (one instant) is 400. Returns it with its text (YYYY-MM-DDTHH:mm:ss.SSS), as stored and shown.
 */
export function parseWallClock(input: string): { wall: WallClock; text: string } {
  const { wall, check, zulu, sign } = readScheduledAt(input);
  if (zulu || sign) {
    throw invalidParameter('scheduled_at must be a wall-clock time without Z or an offset when scheduled_timezone is "recipient" (it is read in each recipient\'s zone)');
  }
  return { wall, text: check.toISOString().slice(0, 23) };
}

export function parseScheduledAt(input: string, timeZone: string): Date {
  const { wall, check, zulu, sign, oh, om, bad } = readScheduledAt(input);
  // The zone is checked even when an offset wins: it is stored and shown either way.
  const zone = canonicalTimeZone(timeZone);
  if (zulu) return check;
  if (sign) {
    if (Number(oh) > 23 || Number(om) > 59) throw bad();
    const offset = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
    return new Date(check.getTime() - offset);
  }
  return zonedToInstant(wall, zone);
}

export function checkScheduleWindow(at: Date, now: Date, windowSeconds: number): void {
  const ms = at.getTime();
  if (Number.isNaN(ms)) throw invalidParameter('scheduled_at is not a valid time');
  if (ms < now.getTime() + windowSeconds * 1000) {
    throw scheduledAtPast(`scheduled_at must be at least ${windowSeconds} seconds from now; use send to send now`);
  }
  if (ms > now.getTime() + MAX_AHEAD_MS) throw scheduledAtTooFar('scheduled_at must be at most a year (366 days) from now');
}

export function localIso(at: Date, timeZone: string): string {
  const offset = offsetMs(at.getTime(), timeZone);
  const minutes = Math.round(Math.abs(offset) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const pad = (n: number) => String(n).padStart(2, '0');
  // toISOString of the shifted instant is the wall clock, with milliseconds; only its `Z` is replaced.
  return `${new Date(at.getTime() + offset).toISOString().slice(0, -1)}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
