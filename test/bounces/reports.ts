// What a remote MTA sends the bounce listener, built by the tests: RFC 3464 DSNs and ARF complaint reports as raw
// MIME, and a real SMTP client (nodemailer) that delivers them to the listener with the null sender, as an MTA does.
import { connect } from 'node:net';
import nodemailer from 'nodemailer';

const CRLF = '\r\n';

/** A delivery status notification about `messageId` for `finalRecipient`. */
export function dsn(options: { to: string; finalRecipient: string; messageId: string; action?: string; status: string; diagnostic?: string }): string {
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.remote.example>',
    `To: ${options.to}`,
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="dsn-boundary"',
    '',
    '--dsn-boundary',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.remote.example. Your message could not be delivered.',
    '',
    '--dsn-boundary',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.remote.example',
    'Arrival-Date: Fri, 27 Nov 2026 07:00:00 +0000',
    '',
    `Final-Recipient: rfc822; ${options.finalRecipient}`,
    `Original-Recipient: rfc822;${options.finalRecipient}`,
    `Action: ${options.action ?? 'failed'}`,
    `Status: ${options.status}`,
    'Remote-MTA: dns; inbox.remote.example',
    // The default diagnostic is folded over two lines, as Postfix writes a long one.
    `Diagnostic-Code: smtp; ${options.diagnostic ?? `550 ${options.status} <${options.finalRecipient}>: Recipient address${CRLF}    rejected: User unknown in virtual mailbox table`}`,
    '',
    '--dsn-boundary',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: ${options.messageId}`,
    `To: ${options.finalRecipient}`,
    'Subject: A card for you',
    '',
    '--dsn-boundary--',
    '',
  ].join(CRLF);
}

/** An ARF complaint (Feedback-Type abuse unless told) with the original message attached. */
export function complaint(options: { to: string; messageId: string; feedbackType?: string }): string {
  return [
    'From: Feedback Loop <fbl@isp.remote.example>',
    `To: ${options.to}`,
    'Subject: Abuse report',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="arf-boundary"',
    '',
    '--arf-boundary',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is an email abuse report for an email message received from IP 192.0.2.1.',
    '',
    '--arf-boundary',
    'Content-Type: message/feedback-report',
    '',
    `Feedback-Type: ${options.feedbackType ?? 'abuse'}`,
    'User-Agent: RemoteFBL/1.0',
    'Version: 1',
    'Original-Mail-From: <redacted@example.invalid>',
    'Arrival-Date: Fri, 27 Nov 2026 07:00:00 +0000',
    '',
    '--arf-boundary',
    'Content-Type: message/rfc822',
    'Content-Disposition: inline',
    '',
    'From: Sam <no-reply@cardsvc.localhost>',
    'To: redacted@example.invalid',
    'Subject: A card for you',
    `Message-ID: ${options.messageId}`,
    '',
    'The card.',
    '',
    '--arf-boundary--',
    '',
  ].join(CRLF);
}

export interface ListenerAnswer {
  accepted: boolean;
  /** The SMTP reply code of a refusal, and the command it answered. */
  code?: number;
  command?: string;
  response?: string;
}

/** Delivers `raw` to the listener as a remote MTA: null sender, one RCPT, no TLS, no auth. */
export async function deliverToListener(port: number, to: string, raw: string | Buffer): Promise<ListenerAnswer> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, name: 'mx.remote.example' });
  try {
    await transport.sendMail({ envelope: { from: '', to: [to] }, raw });
    return { accepted: true };
  } catch (err) {
    const e = err as { responseCode?: number; command?: string; response?: string; message: string };
    return { accepted: false, ...(e.responseCode ? { code: e.responseCode } : {}), ...(e.command ? { command: e.command } : {}), response: e.response ?? e.message };
  } finally {
    transport.close();
  }
}

/** The listener's answer to EHLO, its lines as sent (greeting excluded). */
export function ehloLines(port: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    let greeted = false;
    socket.setTimeout(5000, () => socket.destroy(new Error('no EHLO answer within 5 s')));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!greeted && /^220 .*\r\n$/m.test(text)) {
        greeted = true;
        text = '';
        socket.write('EHLO mx.remote.example\r\n');
      } else if (greeted && /^250 .*\r\n$/m.test(text)) {
        socket.end('QUIT\r\n');
        resolve(text.trim().split(/\r\n/));
      }
    });
  });
}
