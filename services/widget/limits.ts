// A public widget's sending limits, taken in the send's own transaction (so a send refused later, or rolled back,
// gives them back): per client IP at most `limitEmailsPerSession` emails in a 10-minute window (the IP kept only
// as a SHA-256 with the widget's id), and per widget at most `dailySendCap` emails per UTC day, the owner told once
// when the day's count first reaches 80 % of the cap. Each is one conditional UPDATE (`count + n <= limit`) or the
// window's first row, so two API processes never both let the last emails through, nor both send the notice.
import { Op, UniqueConstraintError, type Transaction } from 'sequelize';
import { sha256Hex } from '../../lib/hash.ts';
import type { Widget } from '../../models/Widget.ts';
import type { ServiceContext } from '../context.ts';
import { queueOwnerNotice } from '../owner-mail.ts';
import { utcDay } from './counters.ts';

export const IP_WINDOW_MS = 10 * 60 * 1000;
/** The daily counter's kind in widget_counters (emails counted against the cap; no IP, no address). */
export const CAP_COUNTER_KIND = 'cap';
/** The share of the daily cap at which the owner is told. */
export const CAP_NOTICE_SHARE = 0.8;
// A row another transaction inserted first is found by the next try's update: a few tries are plenty.
const TRIES = 5;

export const ipHashOf = (widgetId: number, ip: string) => sha256Hex(`widget:${widgetId}:${ip}`);

type Sql = ServiceContext['models']['sequelize'];
const condition = (sequelize: Sql, sql: string) => ({ [Op.and]: [sequelize.literal(sql)] });

/** Takes `n` emails from the IP's current window; false when the window has fewer than `n` left. */
export async function takeFromIpWindow(ctx: ServiceContext, widget: Pick<Widget, 'id'>, ip: string, n: number, limit: number, transaction: Transaction): Promise<boolean> {
  const { models } = ctx;
  if (n > limit) return false;
  const now = ctx.now().getTime();
  const key = { widget_id: widget.id, ip_hash: ipHashOf(widget.id, ip), window_start: new Date(now - (now % IP_WINDOW_MS)) };
  for (let i = 0; i < TRIES; i++) {
    const [taken] = await models.WidgetSendWindow.update(
      { emails: models.sequelize.literal(`emails + ${Math.trunc(n)}`) },
      { where: { ...key, ...condition(models.sequelize, `emails + ${Math.trunc(n)} <= ${Math.trunc(limit)}`) }, transaction },
    );
    if (taken) return true;
    if (await models.WidgetSendWindow.findOne({ where: key, transaction })) return false;
    try {
      await models.WidgetSendWindow.create({ ...key, emails: n }, { transaction });
      return true;
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
    }
  }
  return false;
}

export type CapOutcome = 'taken' | 'crossed' | 'full';

/**
 * Takes `n` emails from the widget's day. `crossed` when this update is the one that took the day's count from
 * below 80 % of the cap to at least 80 %: exactly one update of the day can be it (the two updates' conditions
 * exclude each other, and the count only grows).
 */
export async function takeFromDailyCap(ctx: ServiceContext, widget: Pick<Widget, 'id' | 'account_id'>, n: number, cap: number, transaction: Transaction): Promise<CapOutcome> {
  const { models } = ctx;
  if (n > cap) return 'full';
  const threshold = Math.ceil(cap * CAP_NOTICE_SHARE);
  const key = { widget_id: widget.id, day: utcDay(ctx.now()), kind: CAP_COUNTER_KIND };
  const add = { count: models.sequelize.literal(`count + ${Math.trunc(n)}`) };
  const within = `count + ${Math.trunc(n)} <= ${Math.trunc(cap)}`;
  for (let i = 0; i < TRIES; i++) {
    const [plain] = await models.WidgetCounter.update(add, {
      where: { ...key, ...condition(models.sequelize, `${within} AND (count >= ${threshold} OR count + ${Math.trunc(n)} < ${threshold})`) },
      transaction,
    });
    if (plain) return 'taken';
    const [crossing] = await models.WidgetCounter.update(add, {
      where: { ...key, ...condition(models.sequelize, `${within} AND count < ${threshold} AND count + ${Math.trunc(n)} >= ${threshold}`) },
      transaction,
    });
    if (crossing) return 'crossed';
    if (await models.WidgetCounter.findOne({ where: key, transaction })) return 'full';
    try {
      await models.WidgetCounter.create({ ...key, account_id: widget.account_id, count: n }, { transaction });
      return n >= threshold ? 'crossed' : 'taken';
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
    }
  }
  return 'full';
}

/** The owner's notice at 80 %, queued in the send's transaction (it leaves only if the send is committed). */
export async function queueCapNotice(ctx: ServiceContext, widget: Pick<Widget, 'account_id' | 'name' | 'vanity_id'>, cap: number, transaction: Transaction): Promise<void> {
  await queueOwnerNotice(
    ctx.models,
    widget.account_id,
    {
      kind: 'widget_daily_cap',
      subject: `Your widget "${widget.name}" has used 80 % of today's sends`,
      paragraphs: [
        `Your public widget "${widget.name}" (${widget.vanity_id}) has sent ${Math.ceil(cap * CAP_NOTICE_SHARE)} of its ${cap} emails for today (${utcDay(ctx.now())}, UTC).`,
        'When the cap is reached, the widget refuses further sends until midnight UTC. You can raise dailySendCap in the widget\'s settings, or look at GET /widget/abuse if the traffic is not what you expect.',
      ],
    },
    ctx.now(),
    transaction,
  );
}
