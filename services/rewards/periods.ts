// Spend rule periods: UTC calendar day, week (from Monday) and month, each named by its first day (YYYY-MM-DD).
import type { SpendPeriod } from '../../models/Gift.ts';

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The first day of each period the UTC day `day` (YYYY-MM-DD) falls in. */
export function periodStarts(day: string): Record<SpendPeriod, string> {
  const date = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return {
    day,
    week: dayOf(new Date(date.getTime() - sinceMonday * 86_400_000)),
    month: `${day.slice(0, 7)}-01`,
  };
}

/** When the period that holds `at` ends (the next one's first instant). */
export function resetsAt(period: SpendPeriod, at: Date): Date {
  const start = new Date(`${periodStarts(dayOf(at))[period]}T00:00:00Z`);
  if (period === 'day') return new Date(start.getTime() + 86_400_000);
  if (period === 'week') return new Date(start.getTime() + 7 * 86_400_000);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}
