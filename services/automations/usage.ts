// The automations usage check: an eCard is used by every automation referring to it (selected, a milestone
// rule's, a notification type's: its automation_ecards rows); a widget by every automation referring to one of
// its eCards. Deleting them then needs a token, and the delete takes them out of those automations (./ecard-removal.ts).
import { QueryTypes } from 'sequelize';
import type { UsageCheck } from '../usage.ts';

type Row = { id: number | string; automations: number | string };

const counts = (rows: Row[]) => new Map(rows.map((r) => [Number(r.id), Number(r.automations)]));

export const automationsUsageCheck: UsageCheck = {
  kind: 'automations',
  async ecards(models, accountId, ecardIds) {
    if (ecardIds.length === 0) return new Map();
    const rows = await models.sequelize.query<Row>(
      `SELECT r.ecard_id AS id, COUNT(DISTINCT r.automation_id) AS automations FROM automation_ecards r
       WHERE r.account_id = :accountId AND r.ecard_id IN (:ecardIds) GROUP BY r.ecard_id`,
      { type: QueryTypes.SELECT, replacements: { accountId, ecardIds } },
    );
    return counts(rows);
  },
  async widgets(models, accountId, widgetIds) {
    if (widgetIds.length === 0) return new Map();
    // Through the widget's eCards as they are now: one automation referring to several of them counts once.
    const rows = await models.sequelize.query<Row>(
      `SELECT e.widget_id AS id, COUNT(DISTINCT r.automation_id) AS automations FROM ecards e
       JOIN automation_ecards r ON r.account_id = e.account_id AND r.ecard_id = e.id
       WHERE e.account_id = :accountId AND e.widget_id IN (:widgetIds) GROUP BY e.widget_id`,
      { type: QueryTypes.SELECT, replacements: { accountId, widgetIds } },
    );
    return counts(rows);
  },
};
