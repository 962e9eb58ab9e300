// A widget's daily counters (UTC days, no IPs) and its abuse log (no personal data): what the owner reads in
// `GET /widget/stats` and `GET /widget/abuse`. Counting a view or a form never fails a visitor's request (a lost
// increment is logged, not thrown); a send is counted in its own transaction, with its other rows.
import type { Transaction } from 'sequelize';
import { addIfWithinLimit, countingUpsert } from '../../../lib/written-statements.ts';
import type { Widget } from '../../../models/Widget.ts';
import type { WidgetAbuseKind } from '../../../models/WidgetActivity.ts';
import type { ServiceContext } from '../../context.ts';

export type { WidgetAbuseKind };

/** The counter kinds: gallery views, form opens, sends by share mode (`send:email` counts emails), silent refusals. */
export type CounterKind = 'view' | 'form_open' | 'silent' | `send:${string}`;

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Adds `by` to the widget's counter of `kind` for the day of `at`: one counting upsert (lib/written-statements.ts). In a
 * transaction (a widget send's, which counts its sends with its other rows) on the transaction's connection;
 * otherwise a statement of its own.
 */
export async function addToCounter(ctx: Pick<ServiceContext, 'models'>, widget: Pick<Widget, 'id' | 'account_id'>, kind: CounterKind, at: Date, by = 1, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  const counter = { table: 'widget_counters', key: { widget_id: widget.id, day: utcDay(at), kind }, alsoInserted: { account_id: widget.account_id }, column: 'count', n: Math.trunc(by) };
  if (transaction) await addIfWithinLimit(models.sequelize, transaction, counter);
  else {
    const { sql, params } = countingUpsert(models.sequelize.getDialect(), counter);
    await models.sequelize.query(sql, { replacements: params });
  }
}

/** Counts without failing the request that counted. */
export async function count(ctx: ServiceContext, widget: Pick<Widget, 'id' | 'account_id'>, kind: CounterKind, by = 1): Promise<void> {
  await addToCounter(ctx, widget, kind, ctx.now(), by).catch((err: unknown) => ctx.logger.warn({ err, widgetId: widget.id, kind }, 'widget counter not counted'));
}

/** One row of the owner's abuse log (kept 30 days). */
export async function recordAbuse(ctx: ServiceContext, widget: Pick<Widget, 'id' | 'account_id'>, kind: WidgetAbuseKind): Promise<void> {
  await ctx.models.WidgetAbuseEvent.create({ account_id: widget.account_id, widget_id: widget.id, kind, created_at: ctx.now() });
}
