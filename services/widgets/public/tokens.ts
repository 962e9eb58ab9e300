// The public widget's signed tokens, held by the visitor's page (no cookies): the form token (which widget, a nonce
// that is the submission's idempotency key, when it was issued) and the widget session (a sender who proved an
// address, until when). HMAC-SHA-256 under a key derived from the data key (DATA_ENCRYPTION_KEY), so every API
// process checks what another issued; the previous key still verifies during a rotation.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataKeys } from '../../../lib/data-key.ts';

/** A form token is good for two hours after it was issued. */
export const FORM_TOKEN_MAX_AGE_MS = 2 * 3600 * 1000;

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');

function macKey(keyBytes: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', keyBytes, Buffer.alloc(0), 'cardsvc widget tokens v1', 32));
}

function keysOf(keys: DataKeys | undefined): Buffer[] {
  if (!keys) throw new Error('no data key: widget tokens cannot be signed (set DATA_ENCRYPTION_KEY)');
  return [keys.current, keys.previous].flatMap((k) => (k ? [macKey(k.bytes)] : []));
}

function sign(keys: DataKeys | undefined, kind: string, payload: unknown): string {
  const body = b64(JSON.stringify(payload));
  const mac = createHmac('sha256', keysOf(keys)[0]!).update(`${kind}.${body}`).digest();
  return `${body}.${b64(mac)}`;
}

function verify<T>(keys: DataKeys | undefined, kind: string, token: string): T | null {
  if (typeof token !== 'string' || token.length > 1024) return null;
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) return null;
  const given = Buffer.from(mac, 'base64url');
  const good = keysOf(keys).some((key) => {
    const expected = createHmac('sha256', key).update(`${kind}.${body}`).digest();
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!good) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}

export interface FormToken {
  /** The widget's primary key. */
  w: number;
  /** 128 random bits: the submission's idempotency key. */
  n: string;
  /** Issued at (ms since the epoch). */
  t: number;
}

export function issueFormToken(keys: DataKeys | undefined, widgetId: number, now: Date): string {
  return sign(keys, 'form', { w: widgetId, n: b64(randomBytes(16)), t: now.getTime() } satisfies FormToken);
}

/** The token's content when it is this widget's, genuine and at most two hours old; null otherwise (`form_expired`). */
export function readFormToken(keys: DataKeys | undefined, widgetId: number, token: string, now: Date): FormToken | null {
  const form = verify<FormToken>(keys, 'form', token);
  if (!form || form.w !== widgetId || typeof form.n !== 'string' || typeof form.t !== 'number') return null;
  const age = now.getTime() - form.t;
  return age >= -60_000 && age <= FORM_TOKEN_MAX_AGE_MS ? form : null;
}

export interface WidgetSession {
  w: number;
  /** The proven address, lower-cased. */
  e: string;
  /** The directory member's id when the widget's directory rule applied. */
  m: number | null;
  /** Expires at (ms since the epoch). */
  x: number;
}

export function issueWidgetSession(keys: DataKeys | undefined, session: WidgetSession): string {
  return sign(keys, 'session', session);
}

/** The session when it is this widget's, genuine and not expired; null otherwise. */
export function readWidgetSession(keys: DataKeys | undefined, widgetId: number, token: string, now: Date): WidgetSession | null {
  const session = verify<WidgetSession>(keys, 'session', token);
  if (!session || session.w !== widgetId || typeof session.e !== 'string' || typeof session.x !== 'number') return null;
  return session.x > now.getTime() ? session : null;
}

/** The form's honeypot field: hidden from people (off-screen, no tab stop, `autocomplete=off`), filled only by bots. */
export const HONEYPOT_FIELD = 'fax_number';
