// One-time confirmation tokens: issued for a purpose and a resource, valid 10 minutes, stored as a hash,
// used up by the conditional update that spends them inside the confirmed action's own transaction.
import type { ServiceContext } from './context.ts';
import { Op, type Transaction } from 'sequelize';
import { type ApiError, confirmationRequired as confirmationRequiredError, notFound, resourceRequired } from '../lib/errors.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { Area } from '../models/ApiKey.ts';
import type { TokenPurpose } from '../models/ConfirmationToken.ts';

export const TOKEN_TTL_MS = 10 * 60 * 1000;

export async function issueToken(
  ctx: Pick<ServiceContext, 'models'>,
  input: { accountId: number; purpose: TokenPurpose; resourceId: string | null; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const { models } = ctx;
  const token = `cst_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;
  const expiresAt = new Date(input.now.getTime() + TOKEN_TTL_MS);
  await models.ConfirmationToken.create({
    account_id: input.accountId,
    purpose: input.purpose,
    resource_id: input.resourceId,
    token_hash: sha256Hex(token),
    expires_at: expiresAt,
    used_at: null,
    created_at: input.now,
  });
  return { token, expiresAt };
}

/** The area a console member must manage to issue a purpose's token: the gated action's own (gift-card spends: gift cards). */
export const TOKEN_PURPOSE_AREA: Readonly<Record<TokenPurpose, Area>> = {
  widget_delete: 'widgets',
  widget_dir_sender_off: 'widgets',
  ecard_delete_in_use: 'ecards',
  gc_campaign_send: 'gift_cards',
  gc_automation_enable: 'gift_cards',
  brand_delete: 'brands',
};

/** Purposes a console step-up (the password within 10 minutes) must precede: gift-card spend and widget deletes. */
export function tokenNeedsStepUp(purpose: TokenPurpose): boolean {
  return purpose.startsWith('gc_') || purpose === 'widget_delete';
}

/**
 * The console's issue: the resource must be the account's (else 404), and every purpose but
 * `gc_automation_enable` (which goes without one for a create) names one (else 422 resource_required).
 */
export async function issueTokenFor(
  ctx: Pick<ServiceContext, 'models'>,
  input: { accountId: number; purpose: TokenPurpose; resourceId: number | null; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const { models } = ctx;
  const { accountId, purpose, resourceId } = input;
  if (resourceId === null) {
    if (purpose !== 'gc_automation_enable') throw resourceRequired(`A ${purpose} token is issued for one resource: give resource_id`);
  } else {
    const where = { id: resourceId, account_id: accountId };
    const [noun, count] =
      purpose === 'widget_delete' || purpose === 'widget_dir_sender_off' ? ['widget', await models.Widget.count({ where })]
      : purpose === 'ecard_delete_in_use' ? ['eCard', await models.Ecard.count({ where })]
      : purpose === 'brand_delete' ? ['brand', await models.Brand.count({ where })]
      : purpose === 'gc_campaign_send' ? ['campaign', await models.Campaign.count({ where })]
      : ['automation', await models.Automation.count({ where })];
    if (count === 0) throw notFound(`No ${noun} with id ${resourceId}`);
  }
  return issueToken(ctx, { accountId, purpose, resourceId: resourceId === null ? null : String(resourceId), now: input.now });
}

/** The 403 of an action that needs a confirmation token, with the extra fields the envelope shows. */
export function confirmationRequired(purpose: TokenPurpose, message: string, extra: Record<string, unknown> = {}): ApiError {
  return confirmationRequiredError(message, { extra: { requires_otp: true, otp_purpose: purpose, ...extra } });
}

/**
 * Spends a token for (purpose, resource) within `transaction`: if the action then fails and rolls back,
 * the token stays unused. A missing, foreign, expired, reused or mismatched token is the same 403.
 */
export async function spendToken(
  ctx: Pick<ServiceContext, 'models'>,
  input: { accountId: number; purpose: TokenPurpose; resourceId: string | null; token: string | undefined; now: Date; message: string; extra?: Record<string, unknown> },
  transaction: Transaction,
): Promise<void> {
  const { models } = ctx;
  const refuse = () => confirmationRequired(input.purpose, input.message, input.extra);
  if (!input.token) throw refuse();
  const [spent] = await models.ConfirmationToken.update(
    { used_at: input.now },
    {
      where: {
        token_hash: sha256Hex(input.token),
        account_id: input.accountId,
        purpose: input.purpose,
        resource_id: input.resourceId,
        used_at: null,
        expires_at: { [Op.gt]: input.now },
      },
      transaction,
    },
  );
  if (spent !== 1) throw refuse();
}
