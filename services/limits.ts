// Caps that keep one tenant from hurting the others (LIMIT_*, MEDIA_QUOTA_MB): growth past a cap is a 422
// `limit_exceeded` naming the cap and its maximum; data already over a cap stays, only growth is refused.
import { Op, type Transaction } from 'sequelize';
import { type ApiError, limitExceeded as limitExceededError } from '../lib/errors.ts';
import type { Account } from '../models/Account.ts';
import type { ServiceContext } from './context.ts';

export type LimitName = 'ecards_per_widget' | 'webhooks_per_account' | 'media_quota_mb';

export function limitExceeded(limit: LimitName, max: number, message: string): ApiError {
  return limitExceededError(message, { extra: { limit, max } });
}

const scoped = (transaction: Transaction | undefined) => (transaction ? { transaction } : {});

/** 422 when a new widget (a copy, a campaign's eCards replaced) would hold more than LIMIT_ECARDS_PER_WIDGET eCards. */
export function assertEcardsFit(ctx: ServiceContext, count: number): void {
  const max = ctx.config.limits.ecardsPerWidget;
  if (count > max) throw limitExceeded('ecards_per_widget', max, `A widget holds at most ${max} eCards; this would put ${count} in one`);
}

/** 422 when adding `adding` eCards to the widget would take it past LIMIT_ECARDS_PER_WIDGET. */
export async function assertEcardRoom(ctx: ServiceContext, widgetId: number, adding: number, transaction?: Transaction): Promise<void> {
  const max = ctx.config.limits.ecardsPerWidget;
  // In a transaction on MySQL the widget's row is locked first, so two saves into one widget count one after the
  // other (SQLite's write transactions already do).
  if (transaction && ctx.models.sequelize.getDialect() !== 'sqlite') {
    await ctx.models.Widget.findByPk(widgetId, { transaction, lock: transaction.LOCK.UPDATE, attributes: ['id'] });
  }
  const count = await ctx.models.Ecard.count({ where: { widget_id: widgetId }, ...scoped(transaction) });
  if (count + adding > max) {
    throw limitExceeded('ecards_per_widget', max, `A widget holds at most ${max} eCards; widget ${widgetId} has ${count} and this would add ${adding}`);
  }
}

/** 422 when the account already has LIMIT_WEBHOOKS_PER_ACCOUNT active endpoints (subscriptions and the ecard_shared URL). */
export async function assertWebhookRoom(ctx: ServiceContext, accountId: number, transaction?: Transaction): Promise<void> {
  const max = ctx.config.limits.webhooksPerAccount;
  const count = await ctx.models.WebhookEndpoint.count({ where: { account_id: accountId, removed_at: { [Op.is]: null } }, ...scoped(transaction) });
  if (count >= max) {
    throw limitExceeded('webhooks_per_account', max, `An account has at most ${max} webhook subscriptions and endpoints together; remove one first`);
  }
}

const MB = 1024 * 1024;

/** Bytes of media the account stores (originals and copies; a sandbox account counts its own). */
export async function storedMediaBytes(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction?: Transaction): Promise<number> {
  const { models } = ctx;
  const sum = await models.MediaFile.sum('size_bytes', { where: { account_id: accountId }, ...scoped(transaction) });
  return Number(sum ?? 0);
}

/** 422 when storing `bytes` more would take the account past its plan's MEDIA_QUOTA_MB. */
export async function assertMediaRoom(ctx: ServiceContext, account: Account, bytes: number, transaction?: Transaction): Promise<void> {
  const maxMb = ctx.config.limits.mediaQuotaMb[account.plan];
  const stored = await storedMediaBytes(ctx, account.id, transaction);
  if (stored + bytes > maxMb * MB) {
    throw limitExceeded('media_quota_mb', maxMb, `The ${account.plan} plan stores at most ${maxMb} MB of media per account; ${(stored / MB).toFixed(1)} MB are stored and this image is ${(bytes / MB).toFixed(1)} MB`);
  }
}
