// The bounce listener (issue 34, item 3): an SMTP server (smtp-server) that remote MTAs deliver DSNs and complaint
// reports to, at the VERP addresses our emails left with. It takes RCPT only for a known token (anything else is
// 550 at RCPT, so it relays nothing and stores nothing for strangers), no AUTH, no STARTTLS, at most 1 MB a message
// (advertised as SIZE, refused with 552 past it), and answers 250 once the report is parsed and recorded, or 451 so
// the MTA tries again when the database failed. A message that reports nothing we act on is taken and dropped.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { isKnownBounceToken, recordBounce } from '../services/bounces/record.ts';
import { parseBounceReport, type BounceReport } from '../services/bounces/report.ts';
import { tokenOfReturnPath } from '../services/sends/delivery/return-path.ts';
import type { Services } from './services.ts';

/** The largest message taken, in bytes. */
export const BOUNCE_MESSAGE_LIMIT = 1024 * 1024;
// A DSN is addressed to one VERP address; a few more are tolerated (a report about several of our emails).
const MAX_RECIPIENTS = 10;

export interface RunningBounceListener {
  port: number;
  stop(): Promise<void>;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

function readMessage(stream: SMTPServerDataStream): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      // Past the limit the rest is only counted (smtp-server refuses the message with 552 at its end).
      bytes += chunk.length;
      if (bytes <= BOUNCE_MESSAGE_LIMIT) chunks.push(chunk);
    });
    stream.once('error', reject);
    stream.once('end', () => resolve(stream.sizeExceeded ? null : Buffer.concat(chunks)));
  });
}

export async function startBounceListener(services: Services, options: { host?: string } = {}): Promise<RunningBounceListener> {
  const { config, logger } = services;
  const tokensOf = (session: SMTPServerSession) => [...new Set(session.envelope.rcptTo.map((r) => tokenOfReturnPath(config.bounces, r.address)).filter((t): t is string => t !== null))];

  async function record(session: SMTPServerSession, report: BounceReport): Promise<void> {
    for (const token of tokensOf(session)) {
      const outcome = await recordBounce(services, token, report);
      logger.info({ kind: report.kind, status: report.status, outcome, session: session.id }, 'bounce report');
    }
  }

  const server = new SMTPServer({
    ...(config.bounces.domain ? { name: config.bounces.domain } : {}),
    banner: 'cardsvc bounce listener',
    size: BOUNCE_MESSAGE_LIMIT,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    maxClients: 100,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, '4.5.3 Too many recipients'));
      const token = tokenOfReturnPath(config.bounces, address.address);
      if (!token) return callback(smtpError(550, '5.1.1 No such mailbox here (this server relays nothing)'));
      isKnownBounceToken(services, token).then(
        (known) => callback(known ? undefined : smtpError(550, '5.1.1 No such mailbox here')),
        (err: unknown) => {
          logger.warn({ err }, 'bounce listener: a token could not be looked up');
          callback(smtpError(451, '4.3.0 Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      readMessage(stream)
        .then(async (raw) => {
          if (raw === null) return callback(smtpError(552, `5.3.4 Message exceeds the limit of ${BOUNCE_MESSAGE_LIMIT} bytes`));
          // MIME that cannot be parsed reports nothing: taken (so it is not retried) and dropped.
          const report = await parseBounceReport(raw).catch(() => null);
          if (report) await record(session, report);
          else logger.info({ session: session.id }, 'bounce listener: a message without a report we act on was dropped');
          callback();
        })
        .catch((err: unknown) => {
          logger.warn({ err }, 'bounce listener: a report could not be recorded');
          callback(smtpError(451, '4.3.0 Try again later'));
        });
    },
  });
  // A client that vanishes mid-session is its own problem, not the listener's.
  server.on('error', (err) => logger.debug({ err }, 'bounce listener: connection error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.bounces.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
