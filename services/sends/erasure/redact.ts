// Stopping and erasing bulk sends (a campaign's or an automation's) for their recipients: unclaimed sends are
// canceled; an erased recipient's name, address, rendered card and merge tags go (the rows stay for counts and quota).
import type { ServiceContext } from '../../context.ts';
import { Op, type Transaction } from 'sequelize';

export async function redactSends(ctx: Pick<ServiceContext, 'models'>, accountId: number, sendIds: readonly number[], transaction: Transaction): Promise<void> {
  const { models } = ctx;
  if (sendIds.length === 0) return;
  await models.SendRecipient.update(
    { recipient_name: '', recipient_email: null, rendered_subject: null, rendered_header: null, rendered_html: null },
    { where: { send_id: [...sendIds] }, transaction },
  );
  await models.Send.update({ merge_tags: null }, { where: { id: [...sendIds], account_id: accountId }, transaction });
}

/**
 * Cancels the sends among `sendIds` that no delivery has claimed yet (the same conditional UPDATE the bulk
 * sender's claim races, so each recipient goes one way); returns the sends now canceled for `reason`.
 */
export async function cancelUnclaimedSends(ctx: Pick<ServiceContext, 'models'>, sendIds: readonly number[], reason: string, transaction: Transaction, at?: Date): Promise<Set<number>> {
  const { models } = ctx;
  if (sendIds.length === 0) return new Set();
  await models.SendRecipient.update(
    { status: 'canceled', error: reason, ...(at ? { finished_at: at } : {}) },
    { where: { send_id: [...sendIds], status: 'pending', claimed_at: { [Op.is]: null } }, transaction },
  );
  const rows = await models.SendRecipient.findAll({ attributes: ['send_id'], where: { send_id: [...sendIds], status: 'canceled', error: reason }, raw: true, transaction });
  const stopped = new Set(rows.map((r) => r.send_id));
  if (stopped.size) await models.Send.update({ status: 'canceled' }, { where: { id: [...stopped], status: 'pending' }, transaction });
  return stopped;
}
