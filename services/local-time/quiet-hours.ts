// Quiet hours, local to the recipient: a card due inside the window goes out when it ends, never dropped.
// Pure: the instant and the zone are parameters, so a workflow's plan and the console's forecast agree.
import type { QuietHours } from '../account-settings.ts';
import { localIso, zonedToInstant } from '../campaigns/schedule-time.ts';

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether a wall-clock minute of the day (0-1439) lies in the window [start, end), which may cross midnight. */
export function inQuietHours(minuteOfDay: number, quiet: QuietHours): boolean {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  return start < end ? minuteOfDay >= start && minuteOfDay < end : minuteOfDay >= start || minuteOfDay < end;
}

/** Whether a "HH:MM" time of day lies in the window (an automation's `send_time` inside it is refused). */
export function timeInQuietHours(hhmm: string, quiet: QuietHours | null): boolean {
  return quiet !== null && inQuietHours(minutesOf(hhmm), quiet);
}

/**
 * When a card due at `at` goes out for a recipient in `timeZone`: `at` itself outside the window, else the
 * window's end on the right local day (the next day when the window crosses midnight and `at` is before it). An
 * end that falls in a DST gap lands as far past the gap as it was into it (zonedToInstant's rule).
 */
export function afterQuietHours(at: Date, timeZone: string, quiet: QuietHours | null): Date {
  if (!quiet) return at;
  const local = localIso(at, timeZone); // YYYY-MM-DDTHH:mm:ss.sss±hh:mm
  const minute = Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));
  if (!inQuietHours(minute, quiet)) return at;
  const end = minutesOf(quiet.end);
  // Crossing midnight, a minute at or after the start ends tomorrow; every other quiet minute ends today.
  const tomorrow = minutesOf(quiet.start) > end && minute >= minutesOf(quiet.start);
  const day = new Date(Date.UTC(Number(local.slice(0, 4)), Number(local.slice(5, 7)) - 1, Number(local.slice(8, 10)) + (tomorrow ? 1 : 0)));
  return zonedToInstant(
    { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: Math.floor(end / 60), minute: end % 60, second: 0, millisecond: 0 },
    timeZone,
  );
}
