// How every cardsvc command answers: with --json exactly one JSON object on stdout, messages on stderr.
import { ZodError } from 'zod';
import { ApiError } from '../lib/errors.ts';
import { oneLine } from '../lib/main.ts';
import type { CliIo } from './context.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A flag that names a row (`--account`, `--key-id`): a positive whole number. */
export function positiveId(value: string | undefined, flag: string): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number`);
  return n;
}

export interface Output {
  json: boolean;
  /** The command's result: the JSON object, or readable lines without --json. */
  result(value: Record<string, unknown>, text?: string): void;
  message(line: string): void;
}

export function createOutput(json: boolean, io: Pick<CliIo, 'stdout' | 'stderr'>): Output {
  return {
    json,
    result(value, text) {
      if (json) io.stdout(`${JSON.stringify(value)}\n`);
      else io.stdout(`${text ?? Object.entries(value).map(([k, v]) => `${k}: ${String(v)}`).join('\n')}\n`);
    },
    message(line) {
      io.stderr(`${line}\n`);
    },
  };
}

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof ZodError) return { code: 'invalid_input', message: err.issues.map((i) => i.message).join('; ') };
  if (err instanceof ApiError) return { code: err.code, message: err.message };
  if (err instanceof UsageError) return { code: 'usage', message: err.message };
  return { code: 'error', message: oneLine(err) };
}

/** One line on stderr (and, with --json, one `{ ok: false }` object on stdout); answers the exit code, 1. */
export function failure(out: Output, err: unknown, io: Pick<CliIo, 'stdout'>): number {
  const { code, message } = describe(err);
  out.message(`cardsvc: ${message}`);
  if (out.json) io.stdout(`${JSON.stringify({ ok: false, code, message })}\n`);
  return 1;
}
