// "Say thank you" on a recipient's card page: a short plain-text message emailed to the send's sender through the
// mail queue (reply-to the recipient), at most MAX_THANKS per recipient. The count lives on the recipient's row and
// is raised by one conditional UPDATE in the transaction that queues the email, so two posts at once can never
// both be the last one allowed, and a refused post writes nothing.
import { literal, Op } from 'sequelize';
import { writeTransaction } from '../../../lib/db.ts';
import type { ServiceContext } from '../../context.ts';
import { stringsFor } from '../../i18n/locale.ts';
import { cardTitle, queueSenderMail, recipientLabel } from '../delivery/sender-mail.ts';
import { findPage } from './share-page.ts';

export const MAX_THANKS = 3;
export const MAX_THANKS_LENGTH = 1000;

// Control characters other than tab and line feed have no place in a plain-text message.
const isControl = (c: string) => {
  const code = c.charCodeAt(0);
  return (code < 0x20 && c !== '\t' && c !== '\n') || code === 0x7f;
};

/**
 * `not_found`: no such page, or a page of nobody in particular (an old multi-recipient send's shared id);
 * `invalid`: the message is empty, longer than MAX_THANKS_LENGTH characters or holds control characters;
 * `limit`: this recipient has sent MAX_THANKS already. `locale` is the send's, for the answer's language.
 */
export type ThanksResult =
  | { outcome: 'not_found' }
  | { outcome: 'invalid'; locale: string }
  | { outcome: 'limit'; locale: string }
  | { outcome: 'sent'; locale: string; remaining: number };

/** The message as it is sent (trimmed), or null when it is not 1–MAX_THANKS_LENGTH characters of text. */
export function thanksMessage(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const message = value.replace(/\r\n?/g, '\n').trim();
  // Characters as a person counts them (an emoji is one), not UTF-16 units.
  const characters = [...message];
  return characters.length >= 1 && characters.length <= MAX_THANKS_LENGTH && !characters.some(isControl) ? message : null;
}

export async function sayThanks(ctx: ServiceContext, pageId: string, value: unknown): Promise<ThanksResult> {
  const page = await findPage(ctx, pageId);
  if (!page?.recipient) return { outcome: 'not_found' };
  const { send, recipient } = page;
  const message = thanksMessage(value);
  if (message === null) return { outcome: 'invalid', locale: send.locale };
  const strings = stringsFor(send.locale);
  const values = { recipient: recipientLabel(recipient, strings), card: cardTitle(recipient) };
  const { models } = ctx;
  const taken = await writeTransaction(models.sequelize, async (transaction) => {
    const [raised] = await models.SendRecipient.update(
      { thanks_count: literal('thanks_count + 1') },
      { where: { id: recipient.id, thanks_count: { [Op.lt]: MAX_THANKS } }, transaction },
    );
    if (!raised) return null;
    await queueSenderMail(
      ctx,
      send,
      {
        kind: 'thanks',
        subject: strings.t('thanksSubject', values),
        text: `${strings.t('thanksBody', values)}\n\n${message}\n`,
        replyTo: recipient.recipient_email,
      },
      transaction,
    );
    const row = await models.SendRecipient.findByPk(recipient.id, { attributes: ['thanks_count'], transaction, rejectOnEmpty: true });
    return row.thanks_count;
  });
  if (taken === null) return { outcome: 'limit', locale: send.locale };
  return { outcome: 'sent', locale: send.locale, remaining: Math.max(0, MAX_THANKS - taken) };
}
