// Deleting an automation (the console's delete; the key API answers 403 console_only): the row goes with its
// eCard references and exactly-once rows (the foreign keys cascade), then its Schedule. The sends it made stay.
import { writeTransaction } from '../../lib/db.ts';
import { notFound } from '../../lib/errors.ts';
import type { ServiceContext } from '../context.ts';
import { syncAutomationSchedule } from './schedule.ts';

export async function deleteAutomation(ctx: ServiceContext, accountId: number, id: number): Promise<void> {
  const deleted = await writeTransaction(ctx.models.sequelize, (transaction) =>
    ctx.models.Automation.destroy({ where: { id, account_id: accountId }, transaction }),
  );
  if (deleted === 0) throw notFound(`No automation with id ${id}`);
  // After the commit, as every sync: the row is gone, so its Schedule is deleted (Temporal down: the reconciler does it).
  await syncAutomationSchedule(ctx, accountId, id);
}
