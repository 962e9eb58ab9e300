// A public widget's sending limits, taken in the send's own transaction (so a send refused later, or rolled back,
// gives them back): per client IP at most `limitEmailsPerSession` emails in a 10-minute window (the IP kept only
// as a SHA-256 with the widget's id), and per widget at most `dailySendCap` emails per UTC day, the owner told once
// when the day's count first reaches 80 % of the cap. Each is one conditional upsert (`count + n <= limit`), so two
// API processes never both let the last emails through, nor both send the notice.
import type { Transaction } from 'sequelize';
import { sha256Hex } from '../../lib/hash.ts';
import { sqliteReturning, transactionStatement } from '../../lib/transaction-statement.ts';
import { sqlDate } from '../../models/raw-rows.ts';
import type { Widget } from '../../models/Widget.ts';
import type { ServiceContext } from '../context.ts';
import { queueOwnerNotice } from '../owner-mail.ts';
import { utcDay } from './counters.ts';

export const IP_WINDOW_MS = 10 * 60 * 1000;
/** The daily counter's kind in widget_counters (emails counted against the cap; no IP, no address). */
export const CAP_COUNTER_KIND = 'cap';
/** The share of the daily cap at which the owner is told. */
export const CAP_NOTICE_SHARE = 0.8;

export const ipHashOf = (widgetId: number, ip: string) => sha256Hex(`widget:${widgetId}:${ip}`);

const isSqlite = (ctx: ServiceContext) => ctx.models.sequelize.getDialect() === 'sqlite';

/**
 * Takes `n` emails from the IP's current window; false when the window has fewer than `n` left. One upsert on the
 * driver: the window's first row is made by the same statement, which takes the row's lock at once, so two sends
 * making it together wait in turn instead of deadlocking (an UPDATE that matched nothing, then an INSERT, did once
 * they ran before the quota: docs/performance.md, "Widget sends (P12), round two").
 */
export async function takeFromIpWindow(ctx: ServiceContext, widget: Pick<Widget, 'id'>, ip: string, n: number, limit: number, transaction: Transaction): Promise<boolean> {
  if (n > limit) return false;
  const now = ctx.now().getTime();
  const start = sqlDate(ctx.models.sequelize, new Date(now - (now % IP_WINDOW_MS)));
  const insert = 'INSERT INTO widget_send_windows (widget_id, ip_hash, window_start, emails) VALUES (?, ?, ?, ?)';
  // Rows changed, as the quota's upsert: 1 inserted or (SQLite) updated, 2 updated (MySQL), 0 full.
  const [update, params] = isSqlite(ctx)
    ? ['ON CONFLICT (widget_id, ip_hash, window_start) DO UPDATE SET emails = emails + excluded.emails WHERE emails + excluded.emails <= ?', [limit]]
    : ['ON DUPLICATE KEY UPDATE emails = IF(emails + ? <= ?, emails + ?, emails)', [n, limit, n]];
  const { affectedRows } = await transactionStatement(transaction, `${insert} ${update}`, [widget.id, ipHashOf(widget.id, ip), start, n, ...params]);
  return affectedRows > 0;
}

export type CapOutcome = 'taken' | 'crossed' | 'full';

/**
 * Takes `n` emails from the widget's day, by one upsert as the IP window's, which also gives the day's count after
 * it. `crossed` when this update is the one that took the count from below 80 % of the cap to at least 80 %:
 * exactly one update of the day can be it (the row is locked from the statement to the commit, and the count only
 * grows).
 */
export async function takeFromDailyCap(ctx: ServiceContext, widget: Pick<Widget, 'id' | 'account_id'>, n: number, cap: number, transaction: Transaction): Promise<CapOutcome> {
  if (n > cap) return 'full';
  const insert = 'INSERT INTO widget_counters (widget_id, day, kind, account_id, count) VALUES (?, ?, ?, ?, ?)';
  const key = [widget.id, utcDay(ctx.now()), CAP_COUNTER_KIND, widget.account_id, n];
  let count: number | null;
  if (isSqlite(ctx)) {
    const rows = await sqliteReturning(transaction, `${insert} ON CONFLICT (widget_id, day, kind) DO UPDATE SET count = count + excluded.count WHERE count + excluded.count <= ? RETURNING count`, [...key, cap]);
    count = rows.length > 0 ? Number(rows[0]!.count) : null;
  } else {
    // LAST_INSERT_ID(expr) hands an update's new count back in the statement's own answer (as the rate limiter's).
    const sql = `${insert} ON DUPLICATE KEY UPDATE count = IF(count + ? <= ?, LAST_INSERT_ID(count + ?), count)`;
    const { insertId, affectedRows } = await transactionStatement(transaction, sql, [...key, n, cap, n]);
    count = affectedRows === 1 ? n : affectedRows === 2 ? insertId : null;
  }
  if (count === null) return 'full';
  const threshold = Math.ceil(cap * CAP_NOTICE_SHARE);
  return count >= threshold && count - n < threshold ? 'crossed' : 'taken';
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
