// Secrets at rest, sealed with the data key (lib/data-key.ts): AES-256-GCM with a random nonce and an AAD that names
// what is sealed (a ciphertext moved to another account or row does not open). Gift codes, webhook signing secrets
// and every later secret use this one module.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { DataKeys } from './data-key.ts';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class MissingDataKeyError extends Error {
  override name = 'MissingDataKeyError';
  constructor() {
    super('No data encryption key is configured (DATA_ENCRYPTION_KEY or DATA_DIR/secrets/rewards.key)');
  }
}

export function keysOrThrow(keys: DataKeys | undefined): DataKeys {
  if (!keys) throw new MissingDataKeyError();
  return keys;
}

export interface Sealed {
  ciphertext: string;
  keyId: string;
}

/** base64 of nonce ‖ ciphertext ‖ tag, with the current key. */
export function seal(keys: DataKeys, aad: string, plaintext: string): Sealed {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.bytes, nonce);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext: Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64'), keyId: keys.current.id };
}

export function open(keys: DataKeys, aad: string, sealed: Sealed): string {
  const key = keys.byId(sealed.keyId);
  if (!key) throw new Error(`The data key ${sealed.keyId} that sealed this secret is not configured (DATA_ENCRYPTION_KEY_PREVIOUS?)`);
  const raw = Buffer.from(sealed.ciphertext, 'base64');
  // The tag's length pinned: a shortened tag would otherwise be accepted (and be easier to forge).
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}
