// A real SMTP server in the test process (the smtp-server package): records every message it accepts, with
// a small MIME reader for the parts tests look at. A test can make it refuse or drop the next messages.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { onSuiteEnd } from './cleanup.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  messageId: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpTestServer {
  url: string;
  messages: ReceivedMail[];
  /** Messages to one recipient. */
  to(address: string): ReceivedMail[];
  /** Answers the next messages' DATA with this SMTP error instead of accepting them. */
  failNext(count: number, code: number, text: string): void;
  /**
   * Calls `listener` with each message as it is accepted, before the client hears so: a listener's promise holds
   * the answer until it settles (a test looks at the world while a message is handed over). Returns its removal.
   */
  onMessage(listener: (mail: ReceivedMail) => unknown): () => void;
  /** Calls `listener` with each RCPT TO address before answering it (before any DATA); returns its removal. */
  onRecipient(listener: (address: string) => void): () => void;
}

const EQUALS = 0x3d;
const isHexDigit = (byte: number | undefined) =>
  byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));

/**
 * Quoted-printable (RFC 2045) to text: `=XX` is one byte, soft line breaks vanish, other characters stand for their
 * UTF-8 bytes. Works on the bytes in one pass: an email's HTML part is tens of kilobytes, read for every message the
 * suite receives (a byte array grown per character cost the suite's process more CPU than any route it tests).
 */
function decodeQuotedPrintable(text: string): string {
  const input = Buffer.from(text.replace(/=\r?\n/g, ''), 'utf8');
  const output = Buffer.allocUnsafe(input.length);
  let length = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    if (byte === EQUALS && isHexDigit(input[i + 1]) && isHexDigit(input[i + 2])) {
      output[length++] = parseInt(input.toString('latin1', i + 1, i + 3), 16);
      i += 2;
    } else {
      output[length++] = byte;
    }
  }
  return output.toString('utf8', 0, length);
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  ).replace(/\?=\s+=\?/g, '');
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

function splitPart(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  return at < 0 ? { headers: parseHeaders(raw), body: '' } : { headers: parseHeaders(raw.slice(0, at)), body: raw.slice(at).replace(/^\r?\n\r?\n/, '') };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** text/plain and text/html of a message, through nested multiparts. */
function parts(headers: Record<string, string>, body: string, found: { text: string; html: string }): void {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitPart(chunk.replace(/^\r?\n/, ''));
      parts(part.headers, part.body, found);
    }
    return;
  }
  if (/^text\/html/i.test(type)) found.html = decodeBody(headers, body);
  else if (/^text\/plain/i.test(type)) found.text = decodeBody(headers, body);
}

function parseMail(raw: string, from: string, to: string[]): ReceivedMail {
  const { headers, body } = splitPart(raw);
  const found = { text: '', html: '' };
  parts(headers, body, found);
  return { from, to, headers, subject: decodeWords(headers.subject ?? ''), messageId: headers['message-id'] ?? '', text: found.text, html: found.html, raw };
}

let shared: Promise<SmtpTestServer> | undefined;

export function testSmtpServer(): Promise<SmtpTestServer> {
  shared ??= (async () => {
    const messages: ReceivedMail[] = [];
    const failures: Array<{ code: number; text: string }> = [];
    const listeners = new Set<(mail: ReceivedMail) => unknown>();
    const recipientListeners = new Set<(address: string) => void>();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // No reverse DNS of the client: loopback only, and a lookup per connection would dominate.
      disableReverseLookup: true,
      logger: false,
      onRcptTo(address, _session, callback) {
        for (const listener of recipientListeners) listener(address.address);
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const failure = failures.shift();
          if (failure) {
            const err = Object.assign(new Error(failure.text), { responseCode: failure.code });
            callback(err);
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail = parseMail(raw, session.envelope.mailFrom ? session.envelope.mailFrom.address : '', session.envelope.rcptTo.map((r) => r.address));
          messages.push(mail);
          void Promise.allSettled([...listeners].map(async (listener) => listener(mail))).then(() => callback());
        });
      },
    });
    // A client that vanishes mid-session (a killed worker) is a connection error, not the test's failure.
    server.on('error', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onSuiteEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.server.address() as AddressInfo;
    return {
      url: `smtp://127.0.0.1:${port}`,
      messages,
      to: (address) => messages.filter((m) => m.to.includes(address)),
      failNext: (count, code, text) => {
        for (let i = 0; i < count; i++) failures.push({ code, text });
      },
      onMessage: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onRecipient: (listener) => {
        recipientListeners.add(listener);
        return () => recipientListeners.delete(listener);
      },
    };
  })();
  return shared;
}
