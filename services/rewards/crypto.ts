// Gift codes and PINs: the AAD `<account_id>:<pool>` they are sealed under (lib/sealing.ts; a ciphertext moved to
// another account or pool does not open), a keyed hash of the normalized code that refuses duplicates without
// opening anything, and the masks every response shows instead of a code or a link.
import { createHmac } from 'node:crypto';
import type { DataKey, DataKeys } from '../../lib/data-key.ts';

export const aadOf = (accountId: number, pool: string) => `${accountId}:${pool}`;

/** Upper case without spaces or dashes: `abcd-1234` and `ABCD 1234` are the same card. */
export const normalizeCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

const hmacOf = (key: DataKey, code: string) =>
  createHmac('sha256', createHmac('sha256', key.bytes).update('cardsvc rewards code hmac').digest()).update(normalizeCode(code)).digest('hex');

/** The code's keyed hash under the current key, then under the previous one (duplicates across a rotation). */
export function codeHmacs(keys: DataKeys, code: string): string[] {
  return [hmacOf(keys.current, code), ...(keys.previous ? [hmacOf(keys.previous, code)] : [])];
}

/** What is kept to mask a secret later: its last 4 characters, only when it has at least 12. */
export const last4Of = (secret: string) => (secret.length >= 12 ? secret.slice(-4) : null);

/** `****` and the last 4 characters (`****` alone for a secret under 12 characters or none kept). */
export const masked = (last4: string | null | undefined) => `****${last4 ?? ''}`;
