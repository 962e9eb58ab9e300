// Sends the service's own emails queued in mail_queue (owner notices, read receipts, thank-yous to senders and
// eCard tests, the only ones with an HTML part). A sandbox account's go to the mail sink (its sandbox outbox), never
// SMTP, as its sends do; a message's bodies (text and HTML) are cleared once it has left the queue for good, so the
// table keeps no thank-you text after it was delivered.
import { Op } from 'sequelize';
import type { MailMessage } from '../../models/MailMessage.ts';
import type { ServiceContext } from '../context.ts';
import { fromAddress, MailError } from './transport.ts';

const BATCH = 50;

/** Which of the messages' accounts are sandboxes (their mail goes to the sink). */
async function sandboxAccounts(ctx: ServiceContext, messages: readonly MailMessage[]): Promise<Set<number>> {
  const ids = [...new Set(messages.flatMap((m) => (m.account_id === null ? [] : [m.account_id])))];
  if (ids.length === 0) return new Set();
  const accounts = await ctx.models.Account.findAll({ where: { id: ids, mode: 'sandbox' }, attributes: ['id'] });
  return new Set(accounts.map((a) => a.id));
}

/**
 * One pass. A message is claimed (sent_at set conditionally) before it is handed to the transport, so two
 * workers never send it twice; a temporary failure gives the claim back for the next pass.
 */
export async function drainMailQueue(ctx: ServiceContext): Promise<boolean> {
  const { models, now } = ctx;
  const waiting = await models.MailMessage.findAll({ where: { sent_at: { [Op.is]: null } }, order: [['id', 'ASC']], limit: BATCH });
  const sandboxes = await sandboxAccounts(ctx, waiting);
  for (const message of waiting) {
    const [claimed] = await models.MailMessage.update({ sent_at: now() }, { where: { id: message.id, sent_at: { [Op.is]: null } } });
    if (!claimed) continue;
    const done = () => models.MailMessage.update({ text_body: '', html_body: null }, { where: { id: message.id } });
    try {
      await ctx.mail.send(
        {
          accountId: message.account_id,
          messageId: `<notice.${message.id}@cardsvc>`,
          from: { name: 'Card Service', address: fromAddress(ctx.config.mailFrom) },
          to: message.recipient,
          replyTo: message.reply_to ?? undefined,
          subject: message.subject,
          text: message.text_body,
          ...(message.html_body ? { html: message.html_body } : {}),
        },
        { sandbox: message.account_id !== null && sandboxes.has(message.account_id) },
      );
      await done();
    } catch (err) {
      if (!(err instanceof MailError)) throw err;
      // A temporary failure: next pass. A permanent or unknown one stays claimed (never sent twice) and is logged.
      if (err.kind === 'retryable') {
        await models.MailMessage.update({ sent_at: null }, { where: { id: message.id } });
      } else {
        ctx.logger.warn({ err, mailQueueId: message.id }, 'a queued service email could not be sent');
        await done();
      }
    }
  }
  return waiting.length === BATCH;
}
