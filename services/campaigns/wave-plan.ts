// Who goes out when: a campaign's recipients grouped into waves by time zone, each wave due at the campaign's
// wall-clock time in that zone (or at its one instant), moved past the recipients' quiet hours. Pure, so the
// schedule, the console and the unit tests (DST gaps and overlaps) agree on one answer.
import type { QuietHours } from '../account-settings.ts';
import { afterQuietHours } from '../local-time/quiet-hours.ts';
import { zonedToInstant, type WallClock } from './schedule-time.ts';

/** When the campaign is due: a wall-clock time read in each recipient's zone, or one instant for everyone. */
export type WaveTime = { wall: WallClock } | { instant: Date };

export interface WaveRecipient {
  id: number;
  /** Canonical IANA zone (the member's, the CSV row's, or the account's default). */
  timeZone: string;
}

export interface PlannedWave {
  timezone: string;
  /** The campaign's moment in this zone, as asked (before "at once" and quiet hours). */
  due: Date;
  sendAt: Date;
  recipientIds: number[];
}

/** A recipient's zone: the member's own, else the CSV row's `timezone` column, else the account's default. */
export function recipientZone(memberZone: string | null | undefined, csvZone: string | null | undefined, defaultZone: string): string {
  return memberZone || csvZone || defaultZone;
}

/**
 * One wave per zone in use, in the order they go out (instant, then zone name). A zone whose moment is before
 * `now` goes out at `now` (at once); a moment inside quiet hours goes out when they end. A wall-clock time in a
 * spring-forward gap is read as far past the gap as it was into it; one in the repeated hour is its first.
 */
export function planWaves(recipients: WaveRecipient[], time: WaveTime, quiet: QuietHours | null, now: Date): PlannedWave[] {
  const byZone = new Map<string, number[]>();
  for (const r of recipients) {
    const ids = byZone.get(r.timeZone);
    if (ids) ids.push(r.id);
    else byZone.set(r.timeZone, [r.id]);
  }
  const waves = [...byZone].map(([timezone, recipientIds]) => {
    const due = 'wall' in time ? zonedToInstant(time.wall, timezone) : time.instant;
    const start = due.getTime() < now.getTime() ? now : due;
    return { timezone, due, sendAt: afterQuietHours(start, timezone, quiet), recipientIds };
  });
  return waves.sort((a, b) => a.sendAt.getTime() - b.sendAt.getTime() || (a.timezone < b.timezone ? -1 : a.timezone > b.timezone ? 1 : 0));
}

/** Whether a campaign due at one instant needs waves at all: only when quiet hours hold some recipients back. */
export function delaysAny(waves: PlannedWave[], at: Date): boolean {
  return waves.some((w) => w.sendAt.getTime() !== at.getTime());
}
