// Each account's signing secret: made on first use, rotated with a 24-hour overlap in which both sign.
import type { Transaction } from 'sequelize';
import { randomId } from '../../lib/ids.ts';
import type { Models } from '../../models/index.ts';
import type { WebhookSecret } from '../../models/WebhookSecret.ts';

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const newSecret = () => `whsec_${randomId(43)}`;

export async function accountSecret(models: Models, accountId: number, transaction?: Transaction): Promise<WebhookSecret> {
  const options = transaction ? { transaction } : {};
  const existing = await models.WebhookSecret.findByPk(accountId, options);
  if (existing) return existing;
  // Two first uses at once: the insert that loses is ignored, and both read the winner's secret.
  await models.WebhookSecret.bulkCreate([{ account_id: accountId, secret: newSecret(), previous_secret: null, rotated_at: null }], { ignoreDuplicates: true, ...options });
  return (await models.WebhookSecret.findByPk(accountId, options))!;
}

/** The previous secret while it still signs (24 hours after the rotation), else null. */
export function previousSecret(secret: WebhookSecret, now: Date): string | null {
  if (!secret.previous_secret || !secret.rotated_at) return null;
  return now.getTime() - secret.rotated_at.getTime() < ROTATION_OVERLAP_MS ? secret.previous_secret : null;
}

/** The secrets that sign a request now: the current one first. */
export async function signingSecrets(models: Models, accountId: number, now: Date): Promise<string[]> {
  const secret = await accountSecret(models, accountId);
  const previous = previousSecret(secret, now);
  return previous ? [secret.secret, previous] : [secret.secret];
}

/** A new secret; the current one becomes the previous (a second rotation within 24 h drops the oldest). */
export async function rotateSecret(models: Models, accountId: number, now: Date): Promise<WebhookSecret> {
  const secret = await accountSecret(models, accountId);
  return secret.update({ previous_secret: secret.secret, secret: newSecret(), rotated_at: now });
}

/** The secret as an owner sees it (`cardsvc webhook secret`, the console): the current one and the previous while it still signs; `rotate` first makes a new one. */
export async function shownSecret(models: Models, accountId: number, now: Date, rotate: boolean): Promise<{ secret: string; previous: string | null }> {
  const current = rotate ? await rotateSecret(models, accountId, now) : await accountSecret(models, accountId);
  return { secret: current.secret, previous: previousSecret(current, now) };
}
