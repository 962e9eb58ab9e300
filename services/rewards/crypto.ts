// Gift codes and PINs at rest: AES-256-GCM with a random nonce and the AAD `<account_id>:<pool>` (a ciphertext
// moved to another account or pool does not decrypt), a keyed hash of the normalized code that refuses
// duplicates without decrypting anything, and the masks every response shows instead of a code or a link.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { RewardsKey, RewardsKeys } from '../../lib/rewards-keys.ts';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class MissingRewardsKeyError extends Error {
  override name = 'MissingRewardsKeyError';
  constructor() {
    super('No rewards encryption key is configured (REWARDS_ENCRYPTION_KEY or DATA_DIR/secrets/rewards.key)');
  }
}

export function keysOrThrow(keys: RewardsKeys | undefined): RewardsKeys {
  if (!keys) throw new MissingRewardsKeyError();
  return keys;
}

export const aadOf = (accountId: number, pool: string) => `${accountId}:${pool}`;

export interface Sealed {
  ciphertext: string;
  keyId: string;
}

/** base64 of nonce ‖ ciphertext ‖ tag, with the current key. */
export function seal(keys: RewardsKeys, aad: string, plaintext: string): Sealed {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.bytes, nonce);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext: Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64'), keyId: keys.current.id };
}

export function open(keys: RewardsKeys, aad: string, sealed: Sealed): string {
  const key = keys.byId(sealed.keyId);
  if (!key) throw new Error(`The rewards key ${sealed.keyId} that encrypted this code is not configured (REWARDS_ENCRYPTION_KEY_PREVIOUS?)`);
  const raw = Buffer.from(sealed.ciphertext, 'base64');
  // The tag's length pinned: a shortened tag would otherwise be accepted (and be easier to forge).
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** Upper case without spaces or dashes: `abcd-1234` and `ABCD 1234` are the same card. */
export const normalizeCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

const hmacOf = (key: RewardsKey, code: string) =>
  createHmac('sha256', createHmac('sha256', key.bytes).update('cardsvc rewards code hmac').digest()).update(normalizeCode(code)).digest('hex');

/** The code's keyed hash under the current key, then under the previous one (duplicates across a rotation). */
export function codeHmacs(keys: RewardsKeys, code: string): string[] {
  return [hmacOf(keys.current, code), ...(keys.previous ? [hmacOf(keys.previous, code)] : [])];
}

/** What is kept to mask a secret later: its last 4 characters, only when it has at least 12. */
export const last4Of = (secret: string) => (secret.length >= 12 ? secret.slice(-4) : null);

/** `****` and the last 4 characters (`****` alone for a secret under 12 characters or none kept). */
export const masked = (last4: string | null | undefined) => `****${last4 ?? ''}`;
