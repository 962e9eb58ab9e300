// A public widget's sending limits, taken in the send's own transaction (so a send refused later, or rolled back,
// gives them back): per client IP at most `limitEmailsPerSession` emails in a 10-minute window (the IP kept only
// as a SHA-256 with the widget's id), and per widget at most `dailySendCap` emails per UTC day, the owner told once
// when the day's count first reaches 80 % of the cap. Each is one counting upsert within its limit
// (lib/written-statements.ts), so two API processes never both let the last emails through, nor both send the notice.
import type { Transaction } from 'sequelize';
import { sha256Hex } from '../../../lib/hash.ts';
import { addIfWithinLimit, addWithinLimit, sqlDate } from '../../../lib/written-statements.ts';
import type { Widget } from '../../../models/Widget.ts';
import type { ServiceContext } from '../../context.ts';
import { queueOwnerNotice } from '../../owner-mail.ts';
import { utcDay } from './counters.ts';

export const IP_WINDOW_MS = 10 * 60 * 1000;
/** The daily counter's kind in widget_counters (emails counted against the cap; no IP, no address). */
export const CAP_COUNTER_KIND = 'cap';
/** The share of the daily cap at which the owner is told. */
export const CAP_NOTICE_SHARE = 0.8;

export const ipHashOf = (widgetId: number, ip: string) => sha256Hex(`widget:${widgetId}:${ip}`);

/** Takes `n` emails from the IP's current window (one counting upsert); false when the window has fewer than `n` left. */
export async function takeFromIpWindow(ctx: ServiceContext, widget: Pick<Widget, 'id'>, ip: string, n: number, limit: number, transaction: Transaction): Promise<boolean> {
  const now = ctx.now().getTime();
  const start = sqlDate(ctx.models.sequelize, new Date(now - (now % IP_WINDOW_MS)));
  const key = { widget_id: widget.id, ip_hash: ipHashOf(widget.id, ip), window_start: start };
  return addIfWithinLimit(ctx.models.sequelize, transaction, { table: 'widget_send_windows', key, column: 'emails', n, limit });
}

export type CapOutcome = 'taken' | 'crossed' | 'full';

/**
 * Takes `n` emails from the widget's day by one counting upsert, which also gives the day's count after it.
 * `crossed` when this update is the one that took the count from below 80 % of the cap to at least 80 %: exactly
 * one update of the day can be it (the row is locked from the statement to the commit, and the count only grows).
 */
export async function takeFromDailyCap(ctx: ServiceContext, widget: Pick<Widget, 'id' | 'account_id'>, n: number, cap: number, transaction: Transaction): Promise<CapOutcome> {
  const key = { widget_id: widget.id, day: utcDay(ctx.now()), kind: CAP_COUNTER_KIND };
  const count = await addWithinLimit(ctx.models.sequelize, transaction, { table: 'widget_counters', key, alsoInserted: { account_id: widget.account_id }, column: 'count', n, limit: cap });
  if (count === null) return 'full';
  const threshold = Math.ceil(cap * CAP_NOTICE_SHARE);
  return count >= threshold && count - n < threshold ? 'crossed' : 'taken';
}

/** The owner's notice at 80 %, queued in the send's transaction (it leaves only if the send is committed). */
export async function queueCapNotice(ctx: ServiceContext, widget: Pick<Widget, 'account_id' | 'name' | 'vanity_id'>, cap: number, transaction: Transaction): Promise<void> {
  await queueOwnerNotice(
    ctx,
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
