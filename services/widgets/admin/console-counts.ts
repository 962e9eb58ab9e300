// What the console's widget list shows beside each widget: its eCards and its sends this month (UTC calendar
// month), counted in two grouped queries scoped by the account.
import type { ServiceContext } from '../../context.ts';
import { Op } from 'sequelize';

export interface WidgetCounts {
  ecards: number;
  sendsThisMonth: number;
}

/** The first instant of `now`'s month in UTC. */
export const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

export async function widgetCounts(ctx: Pick<ServiceContext, 'models'>, accountId: number, widgetIds: number[], now: Date): Promise<Map<number, WidgetCounts>> {
  const { models } = ctx;
  const counts = new Map<number, WidgetCounts>(widgetIds.map((id) => [id, { ecards: 0, sendsThisMonth: 0 }]));
  if (widgetIds.length === 0) return counts;
  const [ecards, sends] = await Promise.all([
    models.Ecard.count({ where: { account_id: accountId, widget_id: widgetIds }, group: ['widget_id'] }),
    models.Send.count({ where: { account_id: accountId, widget_id: widgetIds, created_at: { [Op.gte]: monthStart(now) } }, group: ['widget_id'] }),
  ]);
  for (const row of ecards) counts.get(Number(row.widget_id))!.ecards = Number(row.count);
  for (const row of sends) counts.get(Number(row.widget_id))!.sendsThisMonth = Number(row.count);
  return counts;
}
