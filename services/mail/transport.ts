// The mail transport: nodemailer over SMTP (SMTP_URL), or the mail_sink table of simulated deliveries, which
// sandbox accounts always use. Failures say whether the message may be sent again without risking a duplicate.
import nodemailer from 'nodemailer';
import type { Config } from '../../lib/config.ts';
import type { Models } from '../../models/index.ts';

export interface OutgoingMail {
  accountId: number | null;
  /** Deterministic, so a message is recognizable across retries and in the sink. */
  messageId: string;
  from: { name: string; address: string };
  to: string;
  replyTo?: string | undefined;
  subject: string;
  text: string;
  html?: string | undefined;
  /** Extra headers (bulk mail's List-Unsubscribe). */
  headers?: Record<string, string> | undefined;
}

/**
 * `retryable`: SMTP never took the message (a 4xx, or a failure before the DATA hand-over), so sending again
 * cannot duplicate it. `permanent`: a 5xx. Otherwise the outcome is unknown: the message may have been taken.
 */
export class MailError extends Error {
  override name = 'MailError';
  constructor(
    message: string,
    readonly kind: 'retryable' | 'permanent' | 'unknown',
  ) {
    super(message);
  }
}

export interface MailTransport {
  send(mail: OutgoingMail, options: { sandbox: boolean }): Promise<void>;
  close(): void;
}

// SMTP commands that come before the hand-over: a failure in them never delivered the message.
const BEFORE_HANDOVER = new Set(['CONN', 'EHLO', 'HELO', 'LHLO', 'STARTTLS', 'AUTH PLAIN', 'AUTH LOGIN', 'AUTH XOAUTH2', 'AUTH CRAM-MD5', 'MAIL FROM', 'RCPT TO']);

export function classifySmtpError(err: unknown): MailError {
  const e = err as { message?: string; responseCode?: number; command?: string; code?: string; response?: string };
  const text = e.response ?? e.message ?? String(err);
  if (typeof e.responseCode === 'number' && e.responseCode >= 500) return new MailError(text, 'permanent');
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) return new MailError(text, 'retryable');
  if ((e.command && BEFORE_HANDOVER.has(e.command)) || e.code === 'ECONNECTION' || e.code === 'EDNS') return new MailError(text, 'retryable');
  return new MailError(text, 'unknown');
}

/** The address part of MAIL_FROM (`Card Service <no-reply@example.com>` → `no-reply@example.com`). */
export function fromAddress(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
}

export function createMailTransport(models: Models, mail: Config['mail']): MailTransport {
  const smtp = mail.transport === 'smtp' && mail.smtpUrl ? nodemailer.createTransport({ url: mail.smtpUrl, pool: true, maxConnections: mail.poolSize }) : undefined;
  const toSink = async (m: OutgoingMail) => {
    await models.MailSinkMessage.create({
      account_id: m.accountId,
      message_id: m.messageId,
      sender: `${m.from.name} <${m.from.address}>`,
      recipient: m.to,
      reply_to: m.replyTo ?? null,
      subject: m.subject,
      text_body: m.text,
      html_body: m.html ?? null,
      created_at: new Date(),
    });
  };
  return {
    async send(m, options) {
      if (options.sandbox || mail.transport === 'sink') return toSink(m);
      if (!smtp) throw new MailError('No mail transport is configured (set SMTP_URL, or MAIL_TRANSPORT=sink)', 'permanent');
      try {
        await smtp.sendMail({
          messageId: m.messageId,
          from: { name: m.from.name, address: m.from.address },
          to: m.to,
          ...(m.replyTo ? { replyTo: m.replyTo } : {}),
          subject: m.subject,
          text: m.text,
          ...(m.html ? { html: m.html } : {}),
          ...(m.headers ? { headers: m.headers } : {}),
        });
      } catch (err) {
        throw classifySmtpError(err);
      }
    },
    close() {
      smtp?.close();
    },
  };
}
