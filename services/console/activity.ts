// How the account's cards did over the last 30 UTC days, for the console home: per day, the sends that went out
// (status `sent`, by the day of `send_at`), how many of them were opened (a send is opened when its first recipient
// opened it: `sends.opened_at`, as campaigns count it) and the open rate; and the eCards sent most. Counted by the
// database, grouped, so 100,000 sends are a few rows here.
import { fn, col, Op } from 'sequelize';
import type { ServiceContext } from '../context.ts';

/** The window: the last 30 UTC days, today included. */
export const ACTIVITY_DAYS = 30;
/** How many eCards the home lists. */
export const TOP_ECARDS = 5;

const DAY_MS = 24 * 3600 * 1000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export interface Figures {
  sends: number;
  opens: number;
  /** opens / sends, 0–1; null without sends. */
  rate: number | null;
}
export interface ActivityDay extends Figures {
  date: string;
}
export interface TopEcard extends Figures {
  id: number;
  /** null: the eCard is deleted (its sends stay). */
  name: string | null;
}
export interface Activity {
  from: string;
  to: string;
  /** Every day of the window, oldest first (days without sends are zeros). */
  days: ActivityDay[];
  totals: Figures;
  /** The most sent eCards of the window, most sent first (ties: most opened, then the lower id). */
  top: TopEcard[];
}

const figures = (sends: number, opens: number): Figures => ({ sends, opens, rate: sends > 0 ? opens / sends : null });

interface Counted {
  key: string | number;
  sends: number | string;
  opens: number | string;
}

/** The window's sent sends of the account, counted by `key` (a day, an eCard). */
async function countSent(ctx: Pick<ServiceContext, 'models'>, accountId: number, since: Date, key: ReturnType<typeof fn> | string): Promise<Counted[]> {
  const { models } = ctx;
  return (await models.Send.findAll({
    where: { account_id: accountId, status: 'sent', send_at: { [Op.gte]: since } },
    attributes: [[key, 'key'], [fn('count', col('id')), 'sends'], [fn('count', col('opened_at')), 'opens']],
    group: [key as never],
    raw: true,
  })) as unknown as Counted[];
}

/**
 * The eCards of the window's counts by id, a campaign's copy folded into the eCard it was copied from (when that
 * still exists): an owner thinks of "Happy birthday", not of the copy each campaign keeps.
 */
async function topEcards(ctx: Pick<ServiceContext, 'models'>, accountId: number, byEcard: Counted[]): Promise<TopEcard[]> {
  const { models } = ctx;
  if (!byEcard.length) return [];
  const ecards = (await models.Ecard.findAll({
    where: { id: byEcard.map((r) => Number(r.key)), account_id: accountId },
    attributes: ['id', 'name', 'source_ecard_id'],
    include: [{ model: models.Widget, attributes: ['is_campaign'], required: true }],
    raw: true,
    nest: true,
  })) as unknown as Array<{ id: number; name: string; source_ecard_id: number | null; Widget: { is_campaign: boolean | number } }>;
  const copiedFrom = ecards.flatMap((e) => (e.Widget.is_campaign && e.source_ecard_id ? [e.source_ecard_id] : []));
  const sources = copiedFrom.length ? await models.Ecard.findAll({ where: { id: copiedFrom, account_id: accountId }, attributes: ['id', 'name'], raw: true }) : [];
  const names = new Map<number, string>([...ecards, ...sources].map((e) => [e.id, e.name]));
  const sourceIds = new Set(sources.map((e) => e.id));
  const countedAs = new Map(ecards.map((e) => [e.id, e.Widget.is_campaign && e.source_ecard_id && sourceIds.has(e.source_ecard_id) ? e.source_ecard_id : e.id]));
  const totals = new Map<number, { sends: number; opens: number }>();
  for (const row of byEcard) {
    const id = countedAs.get(Number(row.key)) ?? Number(row.key);
    const sum = totals.get(id) ?? { sends: 0, opens: 0 };
    sum.sends += Number(row.sends);
    sum.opens += Number(row.opens);
    totals.set(id, sum);
  }
  return [...totals.entries()]
    .map(([id, { sends, opens }]) => ({ id, name: names.get(id) ?? null, ...figures(sends, opens) }))
    .sort((a, b) => b.sends - a.sends || b.opens - a.opens || a.id - b.id)
    .slice(0, TOP_ECARDS);
}

export async function accountActivity(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number): Promise<Activity> {
  const to = utcDay(ctx.now());
  const since = new Date(Date.parse(`${to}T00:00:00.000Z`) - (ACTIVITY_DAYS - 1) * DAY_MS);
  // The day is the stored UTC time's first 10 characters (the connection's time zone is UTC on both databases).
  const day = fn('substr', col('send_at'), 1, 10);
  const [byDay, byEcard] = await Promise.all([countSent(ctx, accountId, since, day), countSent(ctx, accountId, since, 'ecard_id')]);
  const counted = new Map(byDay.map((r) => [String(r.key).slice(0, 10), r]));
  const days: ActivityDay[] = [];
  let sends = 0;
  let opens = 0;
  for (let i = 0; i < ACTIVITY_DAYS; i++) {
    const date = utcDay(new Date(since.getTime() + i * DAY_MS));
    const row = counted.get(date);
    const s = Number(row?.sends ?? 0);
    const o = Number(row?.opens ?? 0);
    sends += s;
    opens += o;
    days.push({ date, ...figures(s, o) });
  }
  return { from: utcDay(since), to, days, totals: figures(sends, opens), top: await topEcards(ctx, accountId, byEcard) };
}
