// Which samples a `process-cpu.ts summary --from hh:mm:ss --to hh:mm:ss` window selects, by UTC clock time.

/** The UTC clock time of an epoch-milliseconds instant, as hh:mm:ss. */
export const utcClock = (t: number): string => new Date(t).toISOString().slice(11, 19);

/**
 * Whether the instant's UTC clock time is in [from, to]. A window whose `to` is before its `from` crosses midnight
 * (23:59:00 to 00:01:00), so it holds the times after `from` or before `to`.
 */
export function inClockWindow(t: number, from: string, to: string): boolean {
  const clock = utcClock(t);
  return from <= to ? clock >= from && clock <= to : clock >= from || clock <= to;
}
