// How a kept email's head is shown (the console API's outbox and the outbox pages), and where mail goes.
import type { Config } from '../../../lib/config.ts';
import type { MailSinkMessageView as MailSinkMessage } from '../../../services/mail/outbox.ts';

export const outboxHead = (m: MailSinkMessage) => ({
  id: m.id,
  message_id: m.message_id,
  from: m.sender,
  to: m.recipient,
  reply_to: m.reply_to,
  subject: m.subject,
  created_at: m.created_at.toISOString(),
});

/**
 * Where the account's emails go, in words (the outbox page's first sentence). Names the SMTP server by its host only:
 * SMTP_URL may carry a user and password.
 */
export function mailDestination(mode: 'live' | 'sandbox', mail: Config['mail']): string {
  if (mode === 'sandbox') return 'Sandbox emails never leave: they are kept here, in the mail sink, and reach no one.';
  if (mail.transport === 'sink') {
    const why = mail.sinkByDefault ? 'no SMTP server is configured (SMTP_URL is not set)' : 'MAIL_TRANSPORT is set to sink';
    return `Live emails are not sent: ${why}, so they are kept here, in the mail sink, and reach no one.`;
  }
  if (mail.transport === 'smtp' && mail.smtpUrl) {
    return `Live emails go out to their recipients through the SMTP server at ${new URL(mail.smtpUrl).hostname} and are not kept here. Switch to the sandbox (the “Switch to sandbox” button at the top) to read the sandbox’s emails.`;
  }
  return 'Live emails cannot be sent: no SMTP server is configured (set SMTP_URL, or MAIL_TRANSPORT=sink to keep them here).';
}
