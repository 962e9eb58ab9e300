// The campaigns usage check: an eCard is used by every campaign holding a copy of it and by the campaign it belongs
// to (a copy); a widget by every campaign holding a copy of one of its eCards. Deleting them then needs a token.
import { QueryTypes } from 'sequelize';
import type { UsageCheck } from '../usage.ts';

const counts = (rows: Array<{ id: number; campaigns: number | string }>) => {
  const result = new Map<number, number>();
  for (const r of rows) result.set(Number(r.id), (result.get(Number(r.id)) ?? 0) + Number(r.campaigns));
  return result;
};

export const campaignsUsageCheck: UsageCheck = {
  kind: 'campaigns',
  async ecards(models, accountId, ecardIds) {
    if (ecardIds.length === 0) return new Map();
    const rows = await models.sequelize.query<{ id: number; campaigns: number | string }>(
      `SELECT e.source_ecard_id AS id, COUNT(DISTINCT c.id) AS campaigns FROM ecards e JOIN campaigns c ON c.widget_id = e.widget_id
       WHERE e.account_id = :accountId AND e.source_ecard_id IN (:ecardIds) GROUP BY e.source_ecard_id
       UNION ALL
       SELECT e.id AS id, COUNT(c.id) AS campaigns FROM ecards e JOIN campaigns c ON c.widget_id = e.widget_id
       WHERE e.account_id = :accountId AND e.id IN (:ecardIds) GROUP BY e.id`,
      { type: QueryTypes.SELECT, replacements: { accountId, ecardIds } },
    );
    return counts(rows);
  },
  async widgets(models, accountId, widgetIds) {
    if (widgetIds.length === 0) return new Map();
    const rows = await models.sequelize.query<{ id: number; campaigns: number | string }>(
      `SELECT s.widget_id AS id, COUNT(DISTINCT c.id) AS campaigns FROM ecards s
       JOIN ecards e ON e.account_id = s.account_id AND e.source_ecard_id = s.id JOIN campaigns c ON c.widget_id = e.widget_id
       WHERE s.account_id = :accountId AND s.widget_id IN (:widgetIds) GROUP BY s.widget_id`,
      { type: QueryTypes.SELECT, replacements: { accountId, widgetIds } },
    );
    return counts(rows);
  },
};
