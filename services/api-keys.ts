// API keys: generation in the documented format, hashing, and creation with scopes.
import type { ServiceContext } from './context.ts';
import { Op, type Transaction, type Attributes } from 'sequelize';
import { accountNotFound, keyNotFound, keyRevoked } from '../lib/errors.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { Account } from '../models/Account.ts';
import { AREAS, topLevel, type ApiKey, type Area, type Level, type Permissions } from '../models/ApiKey.ts';
import { writeTransaction } from '../lib/db.ts';

/** A key as presenters read it: the row's values, never the model. */
export type ApiKeyView = Attributes<ApiKey>;
/** An account as presenters read it: the row's values, never the model. */
export type AccountView = Attributes<Account>;

/** How long an API process trusts a looked-up key: a revocation takes effect everywhere within this time. */
export const KEY_CACHE_MS = 4000;
const LAST_USED_INTERVAL_MS = 60_000;

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

/** The only form of a key the database keeps. */
export const hashKey = sha256Hex;

export function permissionsFrom(levels: Partial<Record<Area, Level>>, fullAccess: boolean): Permissions {
  return Object.fromEntries(AREAS.map((area) => [area, fullAccess ? topLevel(area) : (levels[area] ?? 'none')])) as Permissions;
}

/** Areas whose `manage` is as much power as full access: a key with it is made or widened only after step-up. */
export const STEP_UP_AREAS = ['gift_cards', 'webhooks', 'settings', 'directory'] as const satisfies readonly Area[];

/** Areas whose mere reading is powerful (the account's people, the audit log): any level of them needs step-up. */
export const STEP_UP_READ_AREAS = ['team', 'audit'] as const satisfies readonly Area[];

/** Whether making (or rotating, or rescoping to) a key with these powers needs the owner's password again. */
export function keyNeedsStepUp(key: { fullAccess: boolean; levels?: Partial<Record<Area, Level>> | undefined }): boolean {
  const levels = key.levels ?? {};
  return key.fullAccess || STEP_UP_AREAS.some((area) => levels[area] === 'manage') || STEP_UP_READ_AREAS.some((area) => (levels[area] ?? 'none') !== 'none');
}

export interface CreatedKey {
  keyId: number;
  key: string;
}

export async function createApiKey(
  ctx: Pick<ServiceContext, 'models'>,
  input: { accountId: number; mode: KeyMode; name?: string; fullAccess: boolean; levels?: Partial<Record<Area, Level>> },
  transaction?: Transaction,
): Promise<CreatedKey> {
  const { models } = ctx;
  const key = generateKey(input.mode);
  const row = await models.ApiKey.create(
    {
      account_id: input.accountId,
      name: input.name ?? '',
      key_hash: hashKey(key),
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

export function keyMode(account: Account): KeyMode {
  return account.mode === 'sandbox' ? 'test' : 'live';
}

/** A key is revoked once its `revoked_at` has passed (a rotation's grace period sets it in the future). */
export function isRevoked(key: Pick<ApiKey, 'revoked_at'>, now: Date): boolean {
  return key.revoked_at !== null && key.revoked_at.getTime() <= now.getTime();
}

export interface AuthenticatedKey {
  apiKey: ApiKey;
  account: Account;
}

export type KeyRejection = 'malformed' | 'unknown' | 'revoked';

export interface KeyAuthenticator {
  /** The key and its account, or why the key is refused. Database errors propagate (→ 503). */
  authenticate(rawKey: string): Promise<AuthenticatedKey | KeyRejection>;
}

/**
 * Looks keys up by hash, with a short cache: revocation reaches every API process within KEY_CACHE_MS.
 * Also writes `last_used_at`, at most once a minute per key (a conditional update, so across processes too).
 */
export function createKeyAuthenticator(ctx: Pick<ServiceContext, 'models'>, now: () => Date, onError: (err: unknown) => void): KeyAuthenticator {
  const { models } = ctx;
  const cache = new Map<string, { found: AuthenticatedKey; expires: number }>();
  const lastTouched = new Map<number, number>();

  const touch = (apiKey: ApiKey, at: Date) => {
    const previous = lastTouched.get(apiKey.id) ?? apiKey.last_used_at?.getTime() ?? 0;
    if (at.getTime() - previous < LAST_USED_INTERVAL_MS) return;
    lastTouched.set(apiKey.id, at.getTime());
    models.ApiKey.update(
      { last_used_at: at },
      {
        where: {
          id: apiKey.id,
          [Op.or]: [{ last_used_at: null }, { last_used_at: { [Op.lte]: new Date(at.getTime() - LAST_USED_INTERVAL_MS) } }],
        },
      },
    ).catch(onError);
  };

  return {
    async authenticate(rawKey) {
      if (!KEY_PATTERN.test(rawKey)) return 'malformed';
      const hash = hashKey(rawKey);
      const at = now();
      let found = cache.get(hash);
      if (!found || found.expires <= Date.now()) {
        const apiKey = await models.ApiKey.findOne({ where: { key_hash: hash }, include: [{ model: models.Account, required: true }] });
        if (!apiKey) {
          cache.delete(hash);
          return 'unknown';
        }
        const account = (apiKey as ApiKey & { Account: Account }).Account;
        found = { found: { apiKey, account }, expires: Date.now() + KEY_CACHE_MS };
        cache.set(hash, found);
      }
      const { apiKey, account } = found.found;
      // A live key on a sandbox account (or the reverse) can only come from a corrupted row: refuse it.
      if (!rawKey.startsWith(`csk_${keyMode(account)}_`)) return 'unknown';
      if (isRevoked(apiKey, at)) return 'revoked';
      touch(apiKey, at);
      return found.found;
    },
  };
}

/** The account a `--account` id names: a live account, or its sandbox when `sandbox` is set. */
export async function resolveAccount(ctx: Pick<ServiceContext, 'models'>, liveAccountId: number, sandbox: boolean): Promise<Account> {
  const { models } = ctx;
  const live = await models.Account.findOne({ where: { id: liveAccountId, mode: 'live' } });
  if (!live) throw accountNotFound(`No live account with id ${liveAccountId}`);
  if (!sandbox) return live;
  const twin = await models.Account.findOne({ where: { live_account_id: live.id, mode: 'sandbox' } });
  if (!twin) throw accountNotFound(`Account ${liveAccountId} has no sandbox account`);
  return twin;
}

/** The key with this id (of `accountId` when given: another account's key is the same 404). */
async function findKey(ctx: Pick<ServiceContext, 'models'>, keyId: number, accountId?: number): Promise<ApiKey & { Account: Account }> {
  const { models } = ctx;
  const key = await models.ApiKey.findOne({ where: { id: keyId, ...(accountId === undefined ? {} : { account_id: accountId }) }, include: [{ model: models.Account, required: true }] });
  if (!key) throw keyNotFound(`No API key with id ${keyId}`);
  return key as ApiKey & { Account: Account };
}

/** Revokes at once, or at `at` (a rotation's grace period). Revoking a revoked key keeps its first time. */
export async function revokeKey(ctx: Pick<ServiceContext, 'models'>, keyId: number, at: Date, accountId?: number): Promise<ApiKey> {
  const key = await findKey(ctx, keyId, accountId);
  if (key.revoked_at === null || key.revoked_at > at) await key.update({ revoked_at: at });
  return key;
}

/** A new key with the same account, name and scopes; the old one is revoked after `graceSeconds`. */
export async function rotateKey(ctx: Pick<ServiceContext, 'models'>, keyId: number, graceSeconds: number, now: Date, accountId?: number): Promise<CreatedKey> {
  const { models } = ctx;
  const old = await findKey(ctx, keyId, accountId);
  if (isRevoked(old, now)) throw keyRevoked(`API key ${keyId} is already revoked`);
  return writeTransaction(models.sequelize, async (transaction) => {
    const created = await createApiKey(
      ctx,
      { accountId: old.account_id, mode: keyMode(old.Account), name: old.name, fullAccess: old.full_access, levels: old.permissions },
      transaction,
    );
    await old.update({ revoked_at: new Date(now.getTime() + graceSeconds * 1000) }, { transaction });
    return created;
  });
}

/** Renames a key of the account and/or replaces its scopes (unlisted areas: none; a full-access key becomes scoped). */
export async function updateKey(
  ctx: Pick<ServiceContext, 'models'>,
  accountId: number,
  keyId: number,
  input: { name?: string | undefined; levels?: Partial<Record<Area, Level>> | undefined },
  now: Date,
): Promise<ApiKey> {
  const key = await findKey(ctx, keyId, accountId);
  if (isRevoked(key, now)) throw keyRevoked(`API key ${keyId} is revoked`);
  const changes: Partial<Pick<ApiKey, 'name' | 'full_access' | 'permissions'>> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.levels !== undefined) Object.assign(changes, { full_access: false, permissions: permissionsFrom(input.levels, false) });
  return key.update(changes);
}

/** The key of the account with this id, or 404 (another account's key included). */
export function findAccountKey(ctx: Pick<ServiceContext, 'models'>, accountId: number, keyId: number): Promise<ApiKey> {
  return findKey(ctx, keyId, accountId);
}

/** One account's keys (the console's live or sandbox account), oldest first. */
export function listAccountKeys(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<ApiKey[]> {
  const { models } = ctx;
  return models.ApiKey.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']] });
}

/** What an operator may see of a key: never the key or its hash. */
export function presentKey(key: ApiKey, account: Account, now: Date) {
  return {
    id: key.id,
    name: key.name,
    mode: account.mode,
    account_id: account.id,
    last4: key.last4,
    full_access: key.full_access,
    permissions: key.permissions,
    last_used_at: key.last_used_at?.toISOString() ?? null,
    revoked: isRevoked(key, now),
    revoked_at: key.revoked_at?.toISOString() ?? null,
    created_at: key.created_at.toISOString(),
  };
}

/** Keys of a live account and of its sandbox. */
export async function listKeys(ctx: Pick<ServiceContext, 'models'>, liveAccountId: number, now: Date) {
  const { models } = ctx;
  const live = await resolveAccount(ctx, liveAccountId, false);
  const accounts = await models.Account.findAll({ where: { [Op.or]: [{ id: live.id }, { live_account_id: live.id }] } });
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const keys = await models.ApiKey.findAll({ where: { account_id: [...byId.keys()] }, order: [['id', 'ASC']] });
  return keys.map((key) => presentKey(key, byId.get(key.account_id)!, now));
}
