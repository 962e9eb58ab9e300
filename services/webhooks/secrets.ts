// Each account's signing secret: made on first use, rotated with a 24-hour overlap in which both sign. At rest each
// secret is sealed like a gift code (AES-256-GCM under DATA_ENCRYPTION_KEY, AAD the account id); a plaintext one
// (written before wave 3) still reads, and encryptPlaintextSecrets seals those when the API or a worker starts.
import { Op, type Transaction } from 'sequelize';
import type { DataKeys } from '../../lib/data-key.ts';
import { randomId } from '../../lib/ids.ts';
import type { WebhookSecret } from '../../models/WebhookSecret.ts';
import type { ServiceContext } from '../context.ts';
import { keysOrThrow, open, seal } from '../../lib/sealing.ts';

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** What a sealed secret starts with in its column: `enc1:<key id>:<base64 of nonce ‖ ciphertext ‖ tag>`. */
const SEALED_PREFIX = 'enc1:';
const BATCH = 500;

type SecretContext = Pick<ServiceContext, 'models' | 'dataKeys'>;

/** An account's secrets as plaintext (never stored so). */
export interface AccountSecret {
  secret: string;
  previous_secret: string | null;
  rotated_at: Date | null;
}

const newSecret = () => `whsec_${randomId(43)}`;
const aadOf = (accountId: number) => `${accountId}:webhook_signing_secret`;

function sealSecret(keys: DataKeys | undefined, accountId: number, secret: string): string {
  const sealed = seal(keysOrThrow(keys), aadOf(accountId), secret);
  return `${SEALED_PREFIX}${sealed.keyId}:${sealed.ciphertext}`;
}

function openSecret(keys: DataKeys | undefined, accountId: number, stored: string): string {
  if (!stored.startsWith(SEALED_PREFIX)) return stored;
  const [keyId = '', ciphertext = ''] = stored.slice(SEALED_PREFIX.length).split(':');
  return open(keysOrThrow(keys), aadOf(accountId), { keyId, ciphertext });
}

function opened(keys: DataKeys | undefined, row: WebhookSecret): AccountSecret {
  return {
    secret: openSecret(keys, row.account_id, row.secret),
    previous_secret: row.previous_secret === null ? null : openSecret(keys, row.account_id, row.previous_secret),
    rotated_at: row.rotated_at,
  };
}

async function secretRow(ctx: SecretContext, accountId: number, transaction?: Transaction): Promise<WebhookSecret> {
  const options = transaction ? { transaction } : {};
  const existing = await ctx.models.WebhookSecret.findByPk(accountId, options);
  if (existing) return existing;
  // Two first uses at once: the insert that loses is ignored, and both read the winner's secret.
  const secret = sealSecret(ctx.dataKeys, accountId, newSecret());
  await ctx.models.WebhookSecret.bulkCreate([{ account_id: accountId, secret, previous_secret: null, rotated_at: null }], { ignoreDuplicates: true, ...options });
  return (await ctx.models.WebhookSecret.findByPk(accountId, options))!;
}

export async function accountSecret(ctx: SecretContext, accountId: number, transaction?: Transaction): Promise<AccountSecret> {
  return opened(ctx.dataKeys, await secretRow(ctx, accountId, transaction));
}

/** The previous secret while it still signs (24 hours after the rotation), else null. */
export function previousSecret(secret: AccountSecret, now: Date): string | null {
  if (!secret.previous_secret || !secret.rotated_at) return null;
  return now.getTime() - secret.rotated_at.getTime() < ROTATION_OVERLAP_MS ? secret.previous_secret : null;
}

/** The secrets that sign a request now: the current one first. */
export async function signingSecrets(ctx: SecretContext, accountId: number, now: Date): Promise<string[]> {
  const secret = await accountSecret(ctx, accountId);
  const previous = previousSecret(secret, now);
  return previous ? [secret.secret, previous] : [secret.secret];
}

/** A new secret; the current one becomes the previous (a second rotation within 24 h drops the oldest). */
export async function rotateSecret(ctx: SecretContext, accountId: number, now: Date): Promise<AccountSecret> {
  const row = await secretRow(ctx, accountId);
  const current = openSecret(ctx.dataKeys, accountId, row.secret);
  const next = newSecret();
  await row.update({ previous_secret: sealSecret(ctx.dataKeys, accountId, current), secret: sealSecret(ctx.dataKeys, accountId, next), rotated_at: now });
  return { secret: next, previous_secret: current, rotated_at: now };
}

/** The secret as an owner sees it (`cardsvc webhook secret`, the console): the current one and the previous while it still signs; `rotate` first makes a new one. */
export async function shownSecret(ctx: SecretContext, accountId: number, now: Date, rotate: boolean): Promise<{ secret: string; previous: string | null }> {
  const current = rotate ? await rotateSecret(ctx, accountId, now) : await accountSecret(ctx, accountId);
  return { secret: current.secret, previous: previousSecret(current, now) };
}

const isPlain = (stored: string | null) => stored !== null && !stored.startsWith(SEALED_PREFIX);

/**
 * Seals the secrets still stored as plaintext (from before encryption at rest), in batches; run when the API or a
 * worker starts. Idempotent and safe to run in several processes at once: each row changes only if it still holds
 * what was read. Without a key (a process that has none) nothing is done. Returns how many rows were sealed.
 */
export async function encryptPlaintextSecrets(ctx: SecretContext): Promise<number> {
  const { models, dataKeys } = ctx;
  if (!dataKeys) return 0;
  const notSealed = { [Op.notLike]: `${SEALED_PREFIX}%` };
  let sealed = 0;
  for (let after = 0; ; ) {
    const rows = await models.WebhookSecret.findAll({
      where: { account_id: { [Op.gt]: after }, [Op.or]: [{ secret: notSealed }, { previous_secret: notSealed }] },
      order: [['account_id', 'ASC']],
      limit: BATCH,
    });
    if (rows.length === 0) return sealed;
    for (const row of rows) {
      const [count] = await models.WebhookSecret.update(
        {
          secret: isPlain(row.secret) ? sealSecret(dataKeys, row.account_id, row.secret) : row.secret,
          previous_secret: isPlain(row.previous_secret) ? sealSecret(dataKeys, row.account_id, row.previous_secret!) : row.previous_secret,
        },
        { where: { account_id: row.account_id, secret: row.secret, previous_secret: row.previous_secret === null ? { [Op.is]: null } : row.previous_secret }, silent: true },
      );
      sealed += count;
    }
    after = rows[rows.length - 1]!.account_id;
  }
}
