// How a sandbox email's head is shown (the console API's outbox and the outbox pages).
import type { MailSinkMessage } from '../../../services/mail/outbox.ts';

export const outboxHead = (m: MailSinkMessage) => ({
  id: m.id,
  message_id: m.message_id,
  from: m.sender,
  to: m.recipient,
  reply_to: m.reply_to,
  subject: m.subject,
  created_at: m.created_at.toISOString(),
});
