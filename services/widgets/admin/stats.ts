// What a widget's owner reads of its public use: the daily counters (views, form opens, sends by share mode,
// silent refusals; no IPs) and the abuse log of the last 30 days (kinds and times; no personal data).
import { Op } from 'sequelize';
import { invalidValue } from '../../../lib/errors.ts';
import type { ServiceContext } from '../../context.ts';
import { findWidget } from './widgets.ts';
import { utcDay } from '../public/counters.ts';

const DAY_MS = 24 * 3600 * 1000;
/** The default window: the last 30 days, today included. */
export const DEFAULT_STATS_DAYS = 30;
/** The longest window one request reads. */
export const MAX_STATS_DAYS = 366;
/** How far back the abuse log goes (older rows are pruned daily). */
export const ABUSE_DAYS = 30;

export interface StatsDay {
  date: string;
  views: number;
  form_opens: number;
  silent: number;
  /** Per share mode (`email` counts emails). */
  sends: Record<string, number>;
}

export interface WidgetStats {
  widgetid: number;
  dateFrom: string;
  dateTo: string;
  totals: Omit<StatsDay, 'date'>;
  /** Every day of the window, oldest first (days without activity are zeros). */
  days: StatsDay[];
}

const dayMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const emptyDay = (date: string): StatsDay => ({ date, views: 0, form_opens: 0, silent: 0, sends: {} });

function add(into: Omit<StatsDay, 'date'>, kind: string, count: number): void {
  if (kind === 'view') into.views += count;
  else if (kind === 'form_open') into.form_opens += count;
  else if (kind === 'silent') into.silent += count;
  else if (kind.startsWith('send:')) into.sends[kind.slice(5)] = (into.sends[kind.slice(5)] ?? 0) + count;
}

/** The window asked for (UTC days, both ends included), checked: from ≤ to, at most 366 days. */
export function statsWindow(now: Date, dateFrom?: string, dateTo?: string): { from: string; to: string } {
  const to = dateTo ?? utcDay(now);
  const from = dateFrom ?? utcDay(new Date(dayMs(to) - (DEFAULT_STATS_DAYS - 1) * DAY_MS));
  if (dayMs(from) > dayMs(to)) throw invalidValue(`dateFrom (${from}) is after dateTo (${to})`);
  const days = (dayMs(to) - dayMs(from)) / DAY_MS + 1;
  if (days > MAX_STATS_DAYS) throw invalidValue(`The window is ${days} days; at most ${MAX_STATS_DAYS} days are read at once`);
  return { from, to };
}

export async function widgetStats(ctx: ServiceContext, accountId: number, widgetId: number, query: { dateFrom?: string | undefined; dateTo?: string | undefined }): Promise<WidgetStats> {
  const widget = await findWidget(ctx, accountId, widgetId);
  const { from, to } = statsWindow(ctx.now(), query.dateFrom, query.dateTo);
  const rows = await ctx.models.WidgetCounter.findAll({ where: { widget_id: widget.id, account_id: accountId, day: { [Op.between]: [from, to] } }, raw: true });
  const days = new Map<string, StatsDay>();
  for (let at = dayMs(from); at <= dayMs(to); at += DAY_MS) days.set(utcDay(new Date(at)), emptyDay(utcDay(new Date(at))));
  const totals = emptyDay('');
  for (const row of rows) {
    add(days.get(row.day)!, row.kind, row.count);
    add(totals, row.kind, row.count);
  }
  const { date: _, ...sums } = totals;
  return { widgetid: widget.id, dateFrom: from, dateTo: to, totals: sums, days: [...days.values()] };
}

export interface WidgetAbuse {
  widgetid: number;
  since: string;
  /** Count per kind over the 30 days. */
  totals: Record<string, number>;
  /** Days with at least one event, oldest first: count per kind. */
  days: Array<{ date: string; counts: Record<string, number> }>;
  /** The events, newest first (at most 1,000). */
  events: Array<{ kind: string; at: string }>;
}

const MAX_EVENTS = 1000;

export async function widgetAbuse(ctx: ServiceContext, accountId: number, widgetId: number): Promise<WidgetAbuse> {
  const widget = await findWidget(ctx, accountId, widgetId);
  const since = new Date(ctx.now().getTime() - ABUSE_DAYS * DAY_MS);
  const where = { widget_id: widget.id, account_id: accountId, created_at: { [Op.gt]: since } };
  const { models } = ctx;
  // Counted by the database (a hammered widget has many rows); the day is the stored UTC time's first 10 characters.
  const day = models.sequelize.fn('substr', models.sequelize.col('created_at'), 1, 10);
  const grouped = (await models.WidgetAbuseEvent.findAll({
    where,
    attributes: [[day, 'day'], 'kind', [models.sequelize.fn('count', models.sequelize.col('id')), 'n']],
    group: [day as never, 'kind'],
    raw: true,
  })) as unknown as Array<{ day: string; kind: string; n: number | string }>;
  const totals: Record<string, number> = {};
  const days = new Map<string, Record<string, number>>();
  for (const row of grouped) {
    const date = String(row.day).slice(0, 10);
    const counts = days.get(date) ?? {};
    days.set(date, counts);
    counts[row.kind] = (counts[row.kind] ?? 0) + Number(row.n);
    totals[row.kind] = (totals[row.kind] ?? 0) + Number(row.n);
  }
  const rows = await models.WidgetAbuseEvent.findAll({ where, order: [['created_at', 'DESC'], ['id', 'DESC']], attributes: ['kind', 'created_at'], limit: MAX_EVENTS, raw: true });
  return {
    widgetid: widget.id,
    since: since.toISOString(),
    totals,
    days: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, counts]) => ({ date, counts })),
    events: rows.map((row) => ({ kind: row.kind, at: new Date(row.created_at).toISOString() })),
  };
}
