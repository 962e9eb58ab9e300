// The sends usage check: an eCard is in use once any send (in any state) used it, and a widget once any of its
// current eCards was sent, so deleting either needs a confirmation token (decisions.md, "In use").
import { fn, col, QueryTypes } from 'sequelize';
import type { UsageCheck } from '../../usage.ts';

export const sendsUsageCheck: UsageCheck = {
  kind: 'sends',
  async ecards(models, accountId, ecardIds) {
    if (ecardIds.length === 0) return new Map();
    const rows = (await models.Send.findAll({
      attributes: ['ecard_id', [fn('COUNT', col('id')), 'sends']],
      where: { account_id: accountId, ecard_id: ecardIds },
      group: ['ecard_id'],
      raw: true,
    })) as unknown as Array<{ ecard_id: number; sends: number | string }>;
    return new Map(rows.map((r) => [Number(r.ecard_id), Number(r.sends)]));
  },
  async widgets(models, accountId, widgetIds) {
    if (widgetIds.length === 0) return new Map();
    // Through the widget's eCards as they are now (an eCard moved away takes its history with it).
    const rows = await models.sequelize.query<{ widget_id: number; sends: number | string }>(
      `SELECT e.widget_id AS widget_id, COUNT(s.id) AS sends FROM ecards e JOIN sends s ON s.account_id = e.account_id AND s.ecard_id = e.id
       WHERE e.account_id = :accountId AND e.widget_id IN (:widgetIds) GROUP BY e.widget_id`,
      { type: QueryTypes.SELECT, replacements: { accountId, widgetIds } },
    );
    return new Map(rows.map((r) => [Number(r.widget_id), Number(r.sends)]));
  },
};
