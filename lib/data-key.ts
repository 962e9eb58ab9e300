// The data key, which seals secrets at rest (gift codes, webhook signing secrets, widget form tokens' keys;
// lib/sealing.ts): DATA_ENCRYPTION_KEY, or its older name REWARDS_ENCRYPTION_KEY (or the file *_FILE names, a Docker
// secret), else the file DATA_DIR/secrets/rewards.key (which `npm start` creates, 0600, when none of them exists; the
// file keeps the name it had when only gift codes were sealed, so an existing install finds its key), and *_PREVIOUS
// (or its _FILE) while rotating.
// A key is 32 bytes written as base64 or 64 hex digits; its id (8 hex digits of its SHA-256) is stored with
// each ciphertext, so a rotation can still read what the previous key wrote.
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from './config.ts';

export interface DataKey {
  id: string;
  bytes: Buffer;
}

export interface DataKeys {
  current: DataKey;
  previous: DataKey | undefined;
  /** The key a ciphertext names by its key id, if this process has it. */
  byId(id: string): DataKey | undefined;
  /** Where the current key came from (never the key itself). */
  source: string;
}

export class DataKeyError extends Error {
  override name = 'DataKeyError';
}

export const dataKeyFile = (dataDir: string) => join(dataDir, 'secrets', 'rewards.key');

function parseKey(text: string, origin: string): DataKey {
  const value = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (bytes.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(value) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(value))) {
    throw new DataKeyError(`${origin}: expected 32 bytes as base64 or 64 hex digits (generate one with: openssl rand -base64 32)`);
  }
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes };
}

// A key in the file a *_FILE variable names: that file must be there (never replaced by a generated key).
function keyFromNamedFile(variable: string, file: string): DataKey {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new DataKeyError(`${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return parseKey(text, `${variable} (${file})`);
}

/** The process's keys, or undefined when neither the variables nor the key file give one. */
export function loadDataKeys(config: Config): DataKeys | undefined {
  const { key: encryptionKey, keyFile: encryptionKeyFile, previousKey, previousKeyFile, variable: keyVariable } = config.dataKey;
  const file = dataKeyFile(config.dataDir);
  let current: DataKey;
  let source: string;
  if (encryptionKey !== undefined) {
    current = parseKey(encryptionKey, keyVariable);
    source = keyVariable;
  } else if (encryptionKeyFile !== undefined) {
    current = keyFromNamedFile(`${keyVariable}_FILE`, encryptionKeyFile);
    source = encryptionKeyFile;
  } else if (existsSync(file)) {
    current = parseKey(readFileSync(file, 'utf8'), file);
    source = file;
  } else {
    return undefined;
  }
  const previous =
    previousKey !== undefined ? parseKey(previousKey, `${keyVariable}_PREVIOUS`)
    : previousKeyFile !== undefined ? keyFromNamedFile(`${keyVariable}_PREVIOUS_FILE`, previousKeyFile)
    : undefined;
  return {
    current,
    previous,
    source,
    byId: (id) => (id === current.id ? current : id === previous?.id ? previous : undefined),
  };
}

/** `npm run api`, `npm run worker`: a key must be given; they never make one (two processes would differ). */
export function requireDataKeys(config: Config, part: string): DataKeys {
  const keys = loadDataKeys(config);
  if (!keys) {
    throw new DataKeyError(
      `${part} needs the data encryption key: set DATA_ENCRYPTION_KEY (32 bytes, base64: openssl rand -base64 32) or put it in ${dataKeyFile(config.dataDir)}`,
    );
  }
  return keys;
}

/** `npm start`: the key, generating the key file (0600) when there is none; `generated` says a warning is due. */
export function ensureDataKeys(config: Config): { keys: DataKeys; generated: string | undefined } {
  const existing = loadDataKeys(config);
  if (existing) return { keys: existing, generated: undefined };
  const file = dataKeyFile(config.dataDir);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { keys: loadDataKeys(config)!, generated: file };
}
