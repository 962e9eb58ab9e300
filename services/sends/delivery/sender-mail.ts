// Emails to a send's sender (read receipts, thank-yous), queued in mail_queue in the caller's transaction and sent
// by the mail queue's background pass. An address the account suppressed (or whose domain it blocked) gets none:
// the message is recorded as skipped (`skip_reason: 'suppressed'`, no body), never handed to the transport.
import type { Transaction } from 'sequelize';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import type { ServiceContext } from '../../context.ts';
import type { Strings } from '../../i18n/locale.ts';
import { blockedRecipient } from '../accept/rules.ts';

export interface SenderMail {
  /** mail_queue.kind: `read_receipt` or `thanks`. */
  kind: string;
  subject: string;
  /** The plain-text body. */
  text: string;
  /** Where the sender's reply goes (a thank-you's recipient), if anywhere. */
  replyTo: string | null;
}

/** Queues the email to the send's sender; false when it was recorded as skipped instead. */
export async function queueSenderMail(ctx: ServiceContext, send: Send, mail: SenderMail, transaction: Transaction): Promise<boolean> {
  const { models } = ctx;
  const at = ctx.now();
  const suppressed = (await blockedRecipient(ctx, send.account_id, [send.sender_email], transaction)) !== null;
  await models.MailMessage.create(
    {
      account_id: send.account_id,
      kind: mail.kind,
      recipient: send.sender_email,
      reply_to: mail.replyTo,
      subject: mail.subject.slice(0, 500),
      text_body: suppressed ? '' : mail.text,
      created_at: at,
      ...(suppressed ? { sent_at: at, skip_reason: 'suppressed' } : {}),
    },
    { transaction },
  );
  if (!suppressed) transaction.afterCommit(() => ctx.nudge());
  return !suppressed;
}

/** How an email to the sender names a recipient: by name, else by address, else "Someone". */
export function recipientLabel(recipient: Pick<SendRecipient, 'recipient_name' | 'recipient_email'>, strings: Strings): string {
  return recipient.recipient_name.trim() || recipient.recipient_email || strings.t('someone');
}

/** The card as its sender knows it: the subject (or header) it was sent with. */
export function cardTitle(recipient: Pick<SendRecipient, 'rendered_subject' | 'rendered_header'>): string {
  return (recipient.rendered_subject || recipient.rendered_header || '').trim();
}
