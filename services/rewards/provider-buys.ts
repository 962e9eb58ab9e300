// Buying the provider orders of some sends before their emails: each pending order is bought with its id as
// external_id (a retry finds the first purchase). Bought → paid/fulfilled with the code encrypted on the order;
// declined → failed (spend released) and its recipient fails without an email. A timeout is thrown after the
// others were bought, so the activity's retry asks again.
import type { ServiceContext } from '../context.ts';
import { aadOf, last4Of } from './crypto.ts';
import { keysOrThrow, seal } from '../../lib/sealing.ts';
import { ordersOfSends } from './orders.ts';
import { buyWithTimeout, providerNamed, ProviderTimeoutError } from './provider.ts';
import { failOrders, failRecipients } from './settle.ts';
import { loadSettings } from './settings.ts';

/** `heartbeat`: called before each buy, so a slow provider never makes the activity look dead. */
export async function buyPendingGifts(ctx: ServiceContext, sendPks: readonly number[], heartbeat?: () => void): Promise<void> {
  const pending = (await ordersOfSends(ctx, sendPks, { fulfillment_status: ['pending'] })).filter((o) => o.source !== 'manual' && o.source !== 'sandbox');
  if (pending.length === 0) return;
  const keys = keysOrThrow(ctx.dataKeys);
  const expiryDays = new Map<number, number>();
  let timedOut: ProviderTimeoutError | undefined;
  for (const order of pending) {
    heartbeat?.();
    const provider = providerNamed(ctx, order.source);
    let result;
    try {
      result = await buyWithTimeout(ctx, provider, { externalId: String(order.id), accountId: order.account_id, sku: order.product_id.slice(order.product_id.indexOf(':') + 1), amountCents: order.amount_cents });
    } catch (err) {
      if (!(err instanceof ProviderTimeoutError)) throw err;
      timedOut = err;
      continue;
    }
    if (result.status === 'declined') {
      await failOrders(ctx, [order], `declined: ${result.reason}`);
      if (order.send_recipient_id) await failRecipients(ctx, [order.send_recipient_id], `gift declined: ${result.reason}`);
      continue;
    }
    const aad = aadOf(order.account_id, order.product_id);
    const code = seal(keys, aad, result.code);
    const pin = result.pin ? seal(keys, aad, result.pin) : null;
    const now = ctx.now();
    if (!expiryDays.has(order.account_id)) expiryDays.set(order.account_id, (await loadSettings(ctx, order.account_id)).claim_expiry_days);
    await ctx.models.GiftOrder.update(
      {
        payment_status: 'paid',
        fulfillment_status: 'fulfilled',
        code_ciphertext: code.ciphertext,
        pin_ciphertext: pin?.ciphertext ?? null,
        key_id: code.keyId,
        code_last4: last4Of(result.code),
        fulfilled_at: now,
        expires_at: new Date(now.getTime() + expiryDays.get(order.account_id)! * 86_400_000),
      },
      { where: { id: order.id, fulfillment_status: 'pending' } },
    );
  }
  if (timedOut) throw timedOut;
}
