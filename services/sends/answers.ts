// What send-ecard answers for a send, by mode and state; cancel-send; and the share page's send.
import { Op } from 'sequelize';
import { writeTransaction } from '../../lib/db.ts';
import { ApiError } from '../../lib/errors.ts';
import type { Models } from '../../models/index.ts';
import type { Send } from '../../models/Send.ts';
import { releaseQuota } from './quota.ts';
import { shareUrl } from './render.ts';

export type SendAnswer = Record<string, unknown> & { sendId: string };

/** The flat fields beside `success` for a send; a send that failed is the provider's error (502). */
export function answerFor(send: Send, publicBaseUrl: string): SendAnswer {
  if (send.mode === 'share') return { sendId: send.send_id, shareUrl: shareUrl(publicBaseUrl, send), statVanityId: send.stat_vanity_id };
  if (send.status === 'scheduled' || send.status === 'canceled') {
    return { sendId: send.send_id, status: send.status, scheduled_to_be_sent_at: send.send_at.toISOString(), emailsSent: 0 };
  }
  if (send.status === 'failed') throw new ApiError(502, 'provider', send.error ?? 'The email could not be sent', { extra: { sendId: send.send_id } });
  return send.status === 'pending' ? { sendId: send.send_id, emailsSent: send.emails_sent, status: 'pending' } : { sendId: send.send_id, emailsSent: send.emails_sent };
}

/** Cancels a scheduled send (a conditional change that races the workflow's own scheduled → pending). */
export async function cancelSend(models: Models, accountId: number, sendId: string): Promise<Send> {
  const send = await models.Send.findOne({ where: { account_id: accountId, send_id: sendId } });
  if (!send) throw new ApiError(404, 'not_found', `No send with id ${sendId}`);
  const canceled = await writeTransaction(models.sequelize, async (transaction) => {
    const [changed] = await models.Send.update({ status: 'canceled' }, { where: { id: send.id, status: 'scheduled' }, transaction });
    if (changed && send.quota_month) await releaseQuota(models, accountId, send.quota_month, send.quota_count, transaction);
    return changed === 1;
  });
  await send.reload();
  if (!canceled) throw new ApiError(422, 'not_cancelable', `Send ${sendId} is ${send.status}; only a scheduled send can be canceled`);
  return send;
}

/** The send behind a share page: sent (or a share link), never canceled or not yet sent. */
export async function sendForPage(models: Models, statVanityId: string): Promise<Send | null> {
  if (!/^[0-9A-Za-z]{20,32}$/.test(statVanityId)) return null;
  return models.Send.findOne({ where: { stat_vanity_id: statVanityId, status: 'sent' } });
}

/** The first view marks the send opened (once). */
export async function markOpened(models: Models, send: Send, at: Date): Promise<void> {
  await models.Send.update({ opened_at: at }, { where: { id: send.id, opened_at: { [Op.is]: null } } });
}
