// The last step of a widget's funnel for its owner (the console's Stats tab): the cards sent from the widget that
// their recipients opened. The daily counters (stats.ts) count what happens on the widget's page; an open happens on
// the card page, so it is read from the sends: recipients with `opened_at`, of the widget's sends whose `send_at`
// falls in the window's UTC days (the counters' `send:email` counts emails, one per recipient, so this counts
// recipients too).
import { QueryTypes } from 'sequelize';
import type { ServiceContext } from '../../context.ts';
import { findWidget } from './widgets.ts';

const DAY_MS = 24 * 3600 * 1000;

export interface WidgetOpens {
  /** Recipients of the window's widget sends (every share mode). */
  recipients: number;
  /** Of them, those who opened their card (so far). */
  opened: number;
}

/** `from` and `to` are UTC days (YYYY-MM-DD), both included, as statsWindow checks them. */
export async function widgetOpens(ctx: Pick<ServiceContext, 'models'>, accountId: number, widgetId: number, window: { from: string; to: string }): Promise<WidgetOpens> {
  const widget = await findWidget(ctx, accountId, widgetId);
  const start = new Date(`${window.from}T00:00:00.000Z`);
  const end = new Date(Date.parse(`${window.to}T00:00:00.000Z`) + DAY_MS);
  const [row] = await ctx.models.sequelize.query<{ recipients: number | string | null; opened: number | string | null }>(
    `SELECT COUNT(r.id) AS recipients, COUNT(r.opened_at) AS opened FROM sends s JOIN send_recipients r ON r.send_id = s.id
      WHERE s.account_id = :accountId AND s.widget_id = :widgetId AND s.origin = 'widget' AND s.send_at >= :start AND s.send_at < :end`,
    { type: QueryTypes.SELECT, replacements: { accountId, widgetId: widget.id, start, end } },
  );
  return { recipients: Number(row?.recipients ?? 0), opened: Number(row?.opened ?? 0) };
}
