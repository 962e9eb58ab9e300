// Structured logs (pino). Credentials never reach a log line: auth headers and keys are redacted; errors are logged
// without their data (statements, bound values), addresses masked and URLs cut to scheme and host.
import { pino, type Logger, type DestinationStream } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'key',
  '*.key',
  'password',
  '*.password',
  'secret',
  '*.secret',
];

// Personal data that may ride in an error's text (an SMTP reply naming its recipient, a URL with a token).
const EMAIL = /[^\s<>()"',;:@]+@[^\s<>()"',;:@]+\.[a-z]{2,}/gi;
const URL_TAIL = /\b(https?:\/\/[^\s/?#"'<>]+)[^\s"'<>]*/gi;
/** Text fit for a log line: addresses masked, URLs cut to scheme and host. */
export const scrubbed = (text: string) => text.replace(URL_TAIL, '$1').replace(EMAIL, '[email]');

/**
 * An error as logged: its kind, code, message and stack, scrubbed. Other fields are left out: a database error
 * carries the statement and its bound values (bodies, addresses, merge values).
 */
export function loggedError(err: unknown): unknown {
  if (!(err instanceof Error)) return typeof err === 'string' ? scrubbed(err) : err;
  const e = err as Error & { code?: unknown; kind?: unknown; status?: unknown; cause?: unknown };
  return {
    type: e.constructor?.name ?? e.name,
    message: scrubbed(e.message),
    ...(e.stack ? { stack: scrubbed(e.stack) } : {}),
    ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: e.code } : {}),
    ...(typeof e.kind === 'string' ? { kind: e.kind } : {}),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    ...(e.cause instanceof Error ? { cause: { type: e.cause.constructor?.name, message: scrubbed(e.cause.message) } } : {}),
  };
}

/**
 * A logger at the configured level; the CLI passes stderr so stdout stays one JSON object.
 * Lines go to stdout asynchronously (pino's default, written out so it is a choice, not an accident): a write in
 * flight gathers the lines logged meanwhile into the next one; nothing waits for a size, and pino flushes what is
 * queued on every exit. Only a SIGKILL can lose lines: those of the last write's few milliseconds
 * (docs/decisions.md, "Reads (issue 35, item 4)").
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { svc: 'cardsvc' },
      // `err` (ours) and `error` (the Temporal SDK's meta) are serialized without their data.
      serializers: { err: loggedError, error: loggedError },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
