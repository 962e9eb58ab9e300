// The gift block of an email, made at the SMTP hand-off and never stored: a fresh claim link (its token's hash
// replaces any earlier one, so only the link in the email that left works) with the brand, amount and expiry.
import { QueryTypes } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { claimUrl, newClaimToken } from './claim-token.ts';
import { amountText } from './money.ts';

export interface GiftEmail {
  brand: string;
  amount: string;
  currency: string;
  claimUrl: string;
  /** YYYY-MM-DD (UTC), or null. */
  expiresOn: string | null;
}

/** Claim links for the fulfilled gifts of these recipients (send_recipients ids), by recipient. */
export async function giftEmailsFor(ctx: ServiceContext, recipientIds: readonly number[]): Promise<Map<number, GiftEmail>> {
  const { models } = ctx;
  const found = new Map<number, GiftEmail>();
  if (recipientIds.length === 0) return found;
  const orders = await models.GiftOrder.findAll({
    attributes: ['id', 'send_recipient_id', 'brand', 'amount_cents', 'currency', 'expires_at'],
    where: { send_recipient_id: [...recipientIds], fulfillment_status: 'fulfilled', claim_status: 'unclaimed', voided: false },
    raw: true,
  });
  if (orders.length === 0) return found;
  const tokens = orders.map((o) => ({ order: o, token: newClaimToken() }));
  // Hex hashes and base64url tail characters only: safe inside the CASE.
  await models.sequelize.query(
    `UPDATE gift_orders SET claim_token_hash = CASE id ${tokens.map((t) => `WHEN ${Number(t.order.id)} THEN '${t.token.hash}'`).join(' ')} END,
       claim_last4 = CASE id ${tokens.map((t) => `WHEN ${Number(t.order.id)} THEN '${t.token.last4}'`).join(' ')} END
     WHERE id IN (${tokens.map((t) => Number(t.order.id)).join(', ')})`,
    { type: QueryTypes.UPDATE },
  );
  for (const { order, token } of tokens) {
    found.set(order.send_recipient_id!, {
      brand: order.brand,
      amount: amountText(order.amount_cents),
      currency: order.currency,
      claimUrl: claimUrl(ctx.config.publicBaseUrl, token.token),
      expiresOn: order.expires_at ? new Date(order.expires_at).toISOString().slice(0, 10) : null,
    });
  }
  return found;
}
