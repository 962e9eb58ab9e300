// The delivery vocabulary every email of a send shares, single or bulk: the outcome recorded when a claimed email's
// result is unknown, the deterministic Message-ID, and the mail handed to the transport. Imports no use case, so
// rewards, the bulk sender and the send's dispatch all read it without an import circle.
import type { Config } from '../../../lib/config.ts';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import { fromAddress, type OutgoingMail } from '../../mail/transport.ts';
import { returnPathOf } from './return-path.ts';

/** A recipient claimed for SMTP whose try stopped before it recorded the result: it is never emailed again. */
export const OUTCOME_UNKNOWN = 'outcome unknown: the attempt that handed this email to SMTP stopped before it recorded the result';

/** The recipient's Message-ID: the send's id and the recipient's position, the same on every try. */
export const messageIdOf = (send: Pick<Send, 'send_id'>, recipient: Pick<SendRecipient, 'position'>) => `<${send.send_id}.${recipient.position}@cardsvc>`;

/**
 * The email of one recipient of a send, as rendered (renderEmail); `headers` only for bulk mail and widget sends
 * (List-Unsubscribe); the envelope sender is the recipient's VERP address when BOUNCE_DOMAIN is set.
 */
export function outgoingMail(
  config: Pick<Config, 'mailFrom' | 'bounces'>,
  send: Pick<Send, 'account_id' | 'sender_name' | 'sender_email'>,
  recipient: Pick<SendRecipient, 'recipient_email' | 'bounce_token'>,
  messageId: string,
  email: { subject: string; text: string; html: string },
  headers?: Record<string, string>,
): OutgoingMail {
  return {
    accountId: send.account_id,
    messageId,
    from: { name: send.sender_name, address: fromAddress(config.mailFrom) },
    to: recipient.recipient_email!,
    replyTo: send.sender_email,
    subject: email.subject,
    text: email.text,
    html: email.html,
    ...(headers ? { headers } : {}),
    returnPath: returnPathOf(config.bounces, recipient.bounce_token),
  };
}
