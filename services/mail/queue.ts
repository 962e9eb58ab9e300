// Sends the service's own emails (owner notices such as a paused webhook endpoint) queued in mail_queue.
import { Op } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { fromAddress, MailError } from './transport.ts';

const BATCH = 50;

/**
 * One pass. A message is claimed (sent_at set conditionally) before it is handed to the transport, so two
 * workers never send it twice; a temporary failure gives the claim back for the next pass.
 */
export async function drainMailQueue(ctx: ServiceContext): Promise<boolean> {
  const { models, now } = ctx;
  const waiting = await models.MailMessage.findAll({ where: { sent_at: { [Op.is]: null } }, order: [['id', 'ASC']], limit: BATCH });
  for (const message of waiting) {
    const [claimed] = await models.MailMessage.update({ sent_at: now() }, { where: { id: message.id, sent_at: { [Op.is]: null } } });
    if (!claimed) continue;
    try {
      await ctx.mail.send(
        {
          accountId: message.account_id,
          messageId: `<notice.${message.id}@cardsvc>`,
          from: { name: 'Card Service', address: fromAddress(ctx.config.mailFrom) },
          to: message.recipient,
          subject: message.subject,
          text: message.text_body,
        },
        { sandbox: false },
      );
    } catch (err) {
      if (!(err instanceof MailError)) throw err;
      // A temporary failure: next pass. A permanent or unknown one stays claimed (never sent twice) and is logged.
      if (err.kind === 'retryable') await models.MailMessage.update({ sent_at: null }, { where: { id: message.id } });
      else ctx.logger.warn({ err, mailQueueId: message.id }, 'a queued service email could not be sent');
    }
  }
  return waiting.length === BATCH;
}
