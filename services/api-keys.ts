// API keys: generation in the documented format, hashing, and creation with scopes.
import type { Transaction } from 'sequelize';
import { AREAS, type Area, type Level, type Permissions } from '../models/ApiKey.ts';
import type { Models } from '../models/index.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 random bytes need 43 base62 digits. */
const KEY_BODY_LENGTH = 43;
export const KEY_PATTERN = /^csk_(live|test)_[0-9A-Za-z]{43,}$/;

export type KeyMode = 'live' | 'test';

function base62(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)]! + out;
    n /= 62n;
  }
  return out.padStart(KEY_BODY_LENGTH, '0');
}

/** A new key: `csk_live_` or `csk_test_` followed by 32 random bytes in base62. */
export function generateKey(mode: KeyMode): string {
  return `csk_${mode}_${base62(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** Lower-case hex SHA-256 of the key, the only form the database keeps. */
export async function hashKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return Buffer.from(digest).toString('hex');
}

export function permissionsFrom(levels: Partial<Record<Area, Level>>, fullAccess: boolean): Permissions {
  return Object.fromEntries(AREAS.map((area) => [area, fullAccess ? 'manage' : (levels[area] ?? 'none')])) as Permissions;
}

export interface CreatedKey {
  keyId: number;
  key: string;
}

export async function createApiKey(
  models: Models,
  input: { accountId: number; mode: KeyMode; name?: string; fullAccess: boolean; levels?: Partial<Record<Area, Level>> },
  transaction?: Transaction,
): Promise<CreatedKey> {
  const key = generateKey(input.mode);
  const row = await models.ApiKey.create(
    {
      account_id: input.accountId,
      name: input.name ?? '',
      key_hash: await hashKey(key),
      last4: key.slice(-4),
      full_access: input.fullAccess,
      permissions: permissionsFrom(input.levels ?? {}, input.fullAccess),
      last_used_at: null,
      revoked_at: null,
    },
    { transaction },
  );
  return { keyId: row.id, key };
}
