// Structured logs (pino). Credentials never reach a log line: auth headers and keys are redacted.
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

/** A logger at the configured level; the CLI passes stderr so stdout stays one JSON object. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { svc: 'cardsvc' } },
    destination ?? pino.destination(1),
  );
}
