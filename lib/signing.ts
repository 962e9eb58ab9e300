// Webhook signatures: the X-SVC-Signature header we send with every delivery, and the check a receiver runs on it.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-SVC-Signature';

const DEFAULT_TOLERANCE_SECONDS = 300;
const HEX_SHA256 = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^\d+$/;

export interface VerifyOptions {
  toleranceSeconds?: number;
  /** A number is unix seconds, the same unit as `t=`. */
  now?: Date | number;
}

interface ParsedHeader {
  /** Kept as the exact text of `t=`, because that text (not a re-formatted number) is what was signed. */
  timestamp: string;
  signatures: string[];
}

// Update the HMAC in two steps so a large Uint8Array body is never copied just to prepend the timestamp.
function hmac(secret: string, timestamp: string, body: string | Uint8Array): Buffer {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`, 'utf8');
  return typeof body === 'string' ? mac.update(body, 'utf8').digest() : mac.update(body).digest();
}

/**
 * One `v1=` per secret, in the order given: during rotation pass [new, previous] so receivers still on the
 * previous secret keep verifying for the overlap.
 */
export function signatureHeader(body: string | Uint8Array, secrets: readonly string[], timestampSeconds: number): string {
  if (secrets.length === 0) throw new Error('signatureHeader needs at least one signing secret');
  if (secrets.some((secret) => secret.length === 0)) throw new Error('signatureHeader was given an empty signing secret');
  // Milliseconds or a fraction here would produce a header every receiver rejects, so fail at the sender instead.
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new Error(`signatureHeader needs a whole, non-negative unix time in seconds, got ${timestampSeconds}`);
  }
  const t = String(timestampSeconds);
  const v1 = secrets.map((secret) => `v1=${hmac(secret, t, body).toString('hex')}`);
  return [`t=${t}`, ...v1].join(',');
}

function parseHeader(header: string): ParsedHeader | null {
  let timestamp: string | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const scheme = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (scheme === 't') {
      // Two timestamps would leave it ambiguous which one the tolerance applies to.
      if (timestamp !== null || !UNIX_SECONDS.test(value)) return null;
      timestamp = value;
    } else if (scheme === 'v1' && HEX_SHA256.test(value)) {
      signatures.push(value);
    }
    // Other schemes (v0=, future versions) are skipped so senders can add them without breaking receivers.
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

function nowSeconds(now: Date | number | undefined): number {
  if (now === undefined) return Date.now() / 1000;
  return now instanceof Date ? now.getTime() / 1000 : now;
}

function withinTolerance(timestamp: string, options: VerifyOptions): boolean {
  const skew = Math.abs(nowSeconds(options.now) - Number(timestamp));
  // `<=` is false for NaN, so an invalid Date or tolerance rejects instead of waving the request through.
  return skew <= (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
}

function isBody(value: unknown): value is string | Uint8Array {
  return typeof value === 'string' || value instanceof Uint8Array;
}

// Plain JS callers can pass an unset env var; treat that as "no secret" rather than a TypeError.
function usableSecrets(secrets: unknown): string[] {
  const list: unknown[] = typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? secrets : [];
  return list.filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/**
 * True when any `v1` matches any of `secrets` and `t` is within the tolerance of now. Returns false rather than
 * throwing on bad input, so a receiver can map every failure to one 400 without a try/catch.
 */
export function verifySignature(
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): boolean {
  if (typeof header !== 'string' || !isBody(rawBody)) return false;
  const parsed = parseHeader(header);
  if (parsed === null || !withinTolerance(parsed.timestamp, options)) return false;
  const keys = usableSecrets(secrets);
  const candidates = parsed.signatures.map((hex) => Buffer.from(hex, 'hex'));
  return keys.some((secret) => {
    const expected = hmac(secret, parsed.timestamp, rawBody);
    return candidates.some((candidate) => timingSafeEqual(expected, candidate));
  });
}
