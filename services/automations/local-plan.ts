// Who a firing sends to, in which zone, at which instant (pure: the firing's find step, the console's forecast and
// the unit tests for DST gaps and overlaps share it). Members → their zone (their own, else the automation's) →
// the firing's local send instant → after the recipient's quiet hours.
import type { QuietHours } from '../account-settings.ts';
import { afterQuietHours } from '../local-time/quiet-hours.ts';
import { sendInstant, type LocalDate, type SendTime } from './local-date.ts';

export interface PlanTiming {
  send_time: SendTime;
  /** The automation's zone: its one Schedule's, and that of every member without a zone of their own. */
  timezone: string;
  recipient_timezone?: boolean | undefined;
}

export interface PlannedCard<M> {
  member: M;
  zone: string;
  /** When the card may go out. */
  sendAt: Date;
}

export interface FiringPlanInput<M extends { timezone: string | null }> {
  members: readonly M[];
  timing: PlanTiming;
  /** recipient_timezone: the zone of this firing (its Schedule's); ignored otherwise. */
  firingZone: string | null;
  /** D: the firing's local date (in the firing's zone). */
  firingDate: LocalDate;
  quiet: QuietHours | null;
  /**
   * The firing's moment, when it is not D's send_time in its zone: a Schedule's nominal time is exactly that, a
   * start by hand says its own. Absent: send_time on D in the firing's zone.
   */
  at?: Date | undefined;
}

/** The zone a member's cards follow: their own, else the automation's. */
export const memberZone = (member: { timezone: string | null }, automationZone: string) => member.timezone ?? automationZone;

/** The zone a firing runs in: its Schedule's with recipient_timezone, else the automation's. */
export const firingZoneOf = (timing: PlanTiming, firingZone: string | null) => (timing.recipient_timezone && firingZone ? firingZone : timing.timezone);

/**
 * The firing's instant (send_time on D in its zone: a time in a DST gap moves forward by the gap, a repeated one
 * takes the first) and each card it sends: with recipient_timezone only the members of its zone, each at that
 * instant unless their own quiet hours hold it until they end.
 */
export function planFiringCards<M extends { timezone: string | null }>(input: FiringPlanInput<M>): { at: Date; cards: Array<PlannedCard<M>> } {
  const { timing, quiet } = input;
  const zone = firingZoneOf(timing, input.firingZone);
  const at = input.at ?? sendInstant(input.firingDate, timing.send_time, zone);
  const cards: Array<PlannedCard<M>> = [];
  for (const member of input.members) {
    const own = memberZone(member, timing.timezone);
    if (timing.recipient_timezone && own !== zone) continue;
    cards.push({ member, zone: own, sendAt: afterQuietHours(at, own, quiet) });
  }
  return { at, cards };
}
