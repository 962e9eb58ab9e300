// Canceling a scheduled send: a conditional state change that races the workflow's own scheduled → pending, then
// the waiting workflow is canceled (a workflow already gone is fine; the row is what counts).
import { writeTransaction } from '../../../lib/db.ts';
import { notCancelable, notFound } from '../../../lib/errors.ts';
import type { Send } from '../../../models/Send.ts';
import { cancelSendWorkflow } from '../../../workflows/send-ecard/lifecycle.ts';
import type { ServiceContext } from '../../context.ts';
import { releaseReservation } from '../../rewards/reservations.ts';
import { releaseQuota } from './quota.ts';

export async function cancelSend(ctx: ServiceContext, accountId: number, sendId: string): Promise<Send> {
  const { models } = ctx;
  const send = await models.Send.findOne({ where: { account_id: accountId, send_id: sendId } });
  if (!send) throw notFound(`No send with id ${sendId}`);
  const canceled = await writeTransaction(models.sequelize, async (transaction) => {
    const [changed] = await models.Send.update({ status: 'canceled' }, { where: { id: send.id, status: 'scheduled' }, transaction });
    if (changed && send.quota_month) await releaseQuota(ctx, accountId, send.quota_month, send.quota_count, transaction);
    if (changed) await releaseReservation(ctx, 'sends', send.id, accountId, transaction);
    return changed === 1;
  });
  await send.reload();
  if (!canceled) throw notCancelable(`Send ${sendId} is ${send.status}; only a scheduled send can be canceled`);
  if (ctx.workflows) await cancelSendWorkflow(ctx.workflows, send.account_id, send.send_id).catch((err: unknown) => ctx.logger.warn({ err, sendId }, 'send workflow not canceled'));
  return send;
}
