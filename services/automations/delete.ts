// Deleting an automation (the console's delete; the key API answers 403 console_only): the row goes with its
// eCard references, exactly-once rows and zone watermarks (the foreign keys cascade), then its Schedules. The sends it made stay.
import { writeTransaction } from '../../lib/db.ts';
import { notFound } from '../../lib/errors.ts';
import type { ServiceContext } from '../context.ts';
import { syncAutomationSchedule } from './schedule.ts';

export async function deleteAutomation(ctx: ServiceContext, accountId: number, id: number): Promise<void> {
  // Its zone Schedules (recipient_timezone) are known by their watermark rows, which go with it: read first.
  const { deleted, zones } = await writeTransaction(ctx.models.sequelize, async (transaction) => {
    const held = await ctx.models.AutomationZoneWatermark.findAll({ attributes: ['zone'], where: { automation_id: id }, raw: true, transaction });
    return { zones: held.map((r) => r.zone), deleted: await ctx.models.Automation.destroy({ where: { id, account_id: accountId }, transaction }) };
  });
  if (deleted === 0) throw notFound(`No automation with id ${id}`);
  // After the commit, as every sync: the row is gone, so its Schedules are deleted (Temporal down: the reconciler does it).
  await syncAutomationSchedule(ctx, accountId, id, zones);
}
