// A gift's claim page behind `/g/<token>`: the link is the bearer secret, stored only as its SHA-256. Finding the
// order by it changes nothing (mail scanners prefetch GETs); revealing decrypts the code and marks the order
// claimed with a conditional UPDATE, so two POSTs at once both show the code and only one sets claimed_at. A
// claimed order shows its code again on a later POST; an unclaimed one past its expiry shows nothing.
import { Op } from 'sequelize';
import type { GiftOrder } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';
import { manualProductId } from './catalog.ts';
import { claimTokenHash } from './claim-token.ts';
import { recordGiftClaimed } from './claimed-event.ts';
import { outcomeTransaction } from '../sends/delivery/outcome-events.ts';
import { aadOf } from './crypto.ts';
import { keysOrThrow, open } from '../../lib/sealing.ts';

/** What newClaimToken makes: 32 random bytes as base64url (43 characters). Anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The order behind a claim link, or null when there is none to show: unknown, voided, or not fulfilled. */
export async function findClaim(ctx: Pick<ServiceContext, 'models'>, token: string): Promise<GiftOrder | null> {
  if (!TOKEN.test(token)) return null;
  const order = await ctx.models.GiftOrder.findOne({ where: { claim_token_hash: claimTokenHash(token) } });
  if (!order || order.voided || order.fulfillment_status !== 'fulfilled' || order.payment_status !== 'paid') return null;
  return order;
}

/**
 * Whether the order's code may be shown: `claimable` (unclaimed, not yet expired), `claimed` (shown before; shown
 * again), or `expired` (moved by the daily expiry, or past expires_at before the expiry ran).
 */
export function claimState(ctx: Pick<ServiceContext, 'now'>, order: GiftOrder): 'claimable' | 'claimed' | 'expired' {
  if (order.claim_status === 'claimed') return 'claimed';
  if (order.claim_status === 'expired') return 'expired';
  return order.expires_at && order.expires_at.getTime() <= ctx.now().getTime() ? 'expired' : 'claimable';
}

export interface RevealedGift {
  order: GiftOrder;
  code: string;
  pin: string | null;
  /** The code's own expiry date (YYYY-MM-DD), when the uploaded pool code has one. */
  codeExpiresOn: string | null;
}

export type RevealResult = { status: 'unknown' } | { status: 'expired'; order: GiftOrder } | ({ status: 'revealed' } & RevealedGift);

// The code and PIN: a pool code's from its gift_codes row (AAD of its pool), a provider's or the sandbox's from the
// order itself (AAD of the order's product). Null when the pool code is no longer this order's (given back to
// inventory by a refund, which also cancels the order: nothing to show).
async function decrypt(ctx: Pick<ServiceContext, 'models' | 'dataKeys'>, order: GiftOrder): Promise<Omit<RevealedGift, 'order'> | null> {
  const keys = keysOrThrow(ctx.dataKeys);
  if (order.code_id !== null) {
    const code = await ctx.models.GiftCode.findOne({ where: { id: order.code_id, account_id: order.account_id } });
    if (!code || code.order_id !== order.id) return null;
    const aad = aadOf(order.account_id, manualProductId(code.brand, code.denomination_cents));
    return {
      code: open(keys, aad, { ciphertext: code.code_ciphertext, keyId: code.key_id }),
      pin: code.pin_ciphertext ? open(keys, aad, { ciphertext: code.pin_ciphertext, keyId: code.key_id }) : null,
      codeExpiresOn: code.expires_on,
    };
  }
  if (!order.code_ciphertext || !order.key_id) throw new Error(`gift order ${order.id} is fulfilled but holds no code`);
  const aad = aadOf(order.account_id, order.product_id);
  return {
    code: open(keys, aad, { ciphertext: order.code_ciphertext, keyId: order.key_id }),
    pin: order.pin_ciphertext ? open(keys, aad, { ciphertext: order.pin_ciphertext, keyId: order.key_id }) : null,
    codeExpiresOn: null,
  };
}

/** The POST of the claim page: the code (decrypted before anything is marked, so a failure leaves it unclaimed). */
export async function revealClaim(ctx: Pick<ServiceContext, 'models' | 'dataKeys' | 'now' | 'nudge' | 'config'>, token: string): Promise<RevealResult> {
  const order = await findClaim(ctx, token);
  if (!order) return { status: 'unknown' };
  if (claimState(ctx, order) === 'expired') return { status: 'expired', order };
  const secret = await decrypt(ctx, order);
  if (!secret) return { status: 'unknown' };
  if (order.claim_status === 'claimed') return { status: 'revealed', order, ...secret };

  const now = ctx.now();
  // The claim and its gift_claimed in one transaction: only the update that marked it emits.
  const marked = await outcomeTransaction(ctx, order.account_id, ['gift_claimed'], async (transaction, emits) => {
    const [changed] = await ctx.models.GiftOrder.update(
      { claim_status: 'claimed', claimed_at: now },
      {
        where: {
          id: order.id,
          claim_status: 'unclaimed',
          voided: false,
          payment_status: 'paid',
          fulfillment_status: 'fulfilled',
          [Op.or]: [{ expires_at: { [Op.is]: null } }, { expires_at: { [Op.gt]: now } }],
        },
        transaction,
      },
    );
    if (changed && emits) await recordGiftClaimed(ctx, await order.reload({ transaction }), secret.code, transaction);
    return changed;
  });
  if (marked === 0) {
    // Something moved it meanwhile: another POST claimed it (show it), or it expired, was voided or refunded.
    const current = await findClaim(ctx, token);
    if (!current) return { status: 'unknown' };
    const state = claimState(ctx, current);
    if (state === 'expired') return { status: 'expired', order: current };
    if (state !== 'claimed') throw new Error(`gift order ${order.id} could not be marked claimed`);
    return { status: 'revealed', order: current, ...secret };
  }
  await order.reload();
  return { status: 'revealed', order, ...secret };
}
