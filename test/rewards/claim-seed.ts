// Gift orders written straight into the database for the claim page and expiry tests: a pool code sealed as
// `cardsvc rewards add-codes` seals it, or a provider-style code on the order, and a claim token as the SMTP
// hand-off makes it.
import type { DataKeys } from '../../lib/data-key.ts';
import type { GiftCode, GiftOrder } from '../../models/Gift.ts';
import type { Models } from '../../models/index.ts';
import { manualProductId } from '../../services/rewards/catalog.ts';
import { newClaimToken } from '../../services/rewards/claim-token.ts';
import { aadOf, codeHmacs, last4Of } from '../../services/rewards/crypto.ts';
import { seal } from '../../lib/sealing.ts';

let counter = 0;
const DAY = 86_400_000;

export interface SeededGift {
  order: GiftOrder;
  token: string;
  code: GiftCode | null;
}

export interface SeedOptions {
  brand?: string;
  amountCents?: number;
  currency?: string;
  code: string;
  pin?: string | null;
  /** manual: a gift_codes row given to the order; simulated: the code sealed on the order itself. */
  source?: 'manual' | 'simulated';
  codeExpiresOn?: string | null;
  memberId?: number | null;
  recipientEmail?: string | null;
  order?: Partial<Pick<GiftOrder, 'payment_status' | 'fulfillment_status' | 'claim_status' | 'voided' | 'expires_at' | 'fulfilled_at'>>;
}

export async function seedGift(models: Models, keys: DataKeys, accountId: number, options: SeedOptions): Promise<SeededGift> {
  const n = (counter += 1);
  const brand = options.brand ?? 'Acme';
  const amountCents = options.amountCents ?? 2500;
  const source = options.source ?? 'manual';
  const productId = source === 'manual' ? manualProductId(brand, amountCents) : 'simulated:acme-us';
  const aad = aadOf(accountId, productId);
  const sealedCode = seal(keys, aad, options.code);
  const sealedPin = options.pin ? seal(keys, aad, options.pin) : null;
  const claim = newClaimToken();
  const now = Date.now();
  const code =
    source === 'manual'
      ? await models.GiftCode.create({
          account_id: accountId,
          brand,
          denomination_cents: amountCents,
          currency: options.currency ?? 'USD',
          code_ciphertext: sealedCode.ciphertext,
          pin_ciphertext: sealedPin?.ciphertext ?? null,
          key_id: sealedCode.keyId,
          code_hmac: codeHmacs(keys, options.code)[0]!,
          code_last4: last4Of(options.code),
          expires_on: options.codeExpiresOn ?? null,
        })
      : null;
  const order = await models.GiftOrder.create({
    account_id: accountId,
    order_key: `test:${process.pid}:${now}:${n}`,
    scope: 'widget',
    campaign_id: null,
    automation_id: null,
    send_id: null,
    send_recipient_id: null,
    member_id: options.memberId ?? null,
    recipient_name: 'Gifted Person',
    recipient_email: options.recipientEmail === undefined ? `gifted-${n}@example.com` : options.recipientEmail,
    product_id: productId,
    brand,
    amount_cents: amountCents,
    currency: options.currency ?? 'USD',
    source,
    payment_status: 'paid',
    fulfillment_status: 'fulfilled',
    spend_day: new Date(now).toISOString().slice(0, 10),
    code_id: code?.id ?? null,
    code_ciphertext: code ? null : sealedCode.ciphertext,
    pin_ciphertext: code ? null : (sealedPin?.ciphertext ?? null),
    key_id: code ? null : sealedCode.keyId,
    code_last4: last4Of(options.code),
    claim_token_hash: claim.hash,
    claim_last4: claim.last4,
    fulfilled_at: new Date(now),
    expires_at: new Date(now + 365 * DAY),
    ...options.order,
  });
  if (code) await code.update({ order_id: order.id, assigned_at: new Date(now) });
  return { order, token: claim.token, code };
}
