// A gift on a send-ecard send: checked at accept (not for share links; amount and product; manual stock for every
// recipient, 422 insufficient_inventory), its spend reserved and its manual codes held in the accept transaction
// (403 spendlimit; 422 insufficient_inventory when another accept took the stock first), and at dispatch each
// recipient's order made (and its held code given) before the email, provider orders bought.
import type { Transaction } from 'sequelize';
import { writeTransaction } from '../../lib/db.ts';
import { giftShareLink, insufficientInventory, spendLimit } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { Send } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import type { ServiceContext } from '../context.ts';
import { availableCodes, resolveGift, storedGift, type ResolvedGift } from './catalog.ts';
import { amountText } from './money.ts';
import { createOrders } from './orders.ts';
import { dayOf } from './periods.ts';
import { buyPendingGifts } from './provider-buys.ts';
import { holdCodes } from './inventory.ts';
import { failRecipients } from './settle.ts';
import { loadSettings, type GiftSettingsView } from './settings.ts';
import { reserveSpend } from './spend.ts';

export interface CheckedGift {
  gift: ResolvedGift;
  settings: GiftSettingsView;
}

const outOfStock = (gift: ResolvedGift, needed: number, available: number) =>
  insufficientInventory(`Only ${available} ${gift.product_id} code(s) are left; ${needed} are needed`, { extra: { needed, available } });

/** Refuses what can be refused before the transaction: share links, the amount and product, manual stock. */
export async function checkGift(ctx: ServiceContext, account: Account, requested: { product_id: string; amount: number }, input: { share: boolean; recipients: number }): Promise<CheckedGift> {
  if (input.share) throw giftShareLink('A gift card goes with an email: a share link cannot carry one (send by email, or drop giftCard)');
  const settings = await loadSettings(ctx, account.id);
  const gift = await resolveGift(ctx, account, requested, settings);
  await checkStock(ctx, account.id, gift, input.recipients);
  return { gift, settings };
}

/** Manual codes for every recipient, or 422 insufficient_inventory (the sandbox's generated codes never run out). */
export async function checkStock(ctx: ServiceContext, accountId: number, gift: ResolvedGift, recipients: number, transaction?: Transaction): Promise<void> {
  if (gift.source !== 'manual') return;
  const available = await availableCodes(ctx, accountId, gift.pool!, transaction);
  if (available < recipients) throw outOfStock(gift, recipients, available);
}

/**
 * The accept's last step: one manual code per recipient held for the send (SKIP LOCKED on MySQL), or 422
 * insufficient_inventory, which rolls the whole accept back (no send, no reservation, no idempotency row).
 */
export async function holdGiftCodes(ctx: ServiceContext, accountId: number, checked: CheckedGift, sendPk: number, recipients: number, transaction: Transaction): Promise<void> {
  const { gift } = checked;
  if (gift.source !== 'manual' || recipients <= 0) return;
  const held = await holdCodes(ctx, accountId, gift.pool!, sendPk, recipients, transaction);
  if (held < recipients) throw outOfStock(gift, recipients, held);
}

/** Reserves `cents` today in the accept's transaction; 403 spendlimit (with what is needed and left) when a rule refuses. */
export async function reserveGiftSpend(ctx: ServiceContext, accountId: number, checked: CheckedGift, cents: number, transaction: Transaction, day = dayOf(ctx.now())): Promise<string> {
  const refusal = await reserveSpend(ctx, accountId, { cents, day, enforce: checked.settings.velocity_limits_enabled }, transaction);
  if (refusal) {
    const currency = checked.settings.currency;
    throw spendLimit(
      `The gift-card ${refusal.period}ly spend limit of ${amountText(refusal.limitCents)} ${currency} has ${amountText(refusal.remainingCents)} ${currency} left; this needs ${amountText(cents)} ${currency}`,
      { extra: { needed: cents / 100, remaining: refusal.remainingCents / 100, period: refusal.period } },
    );
  }
  return day;
}

/** Dispatch: each waiting recipient's order (its code given now), then the provider buys; a recipient whose gift failed fails. */
export async function prepareSendGifts(ctx: ServiceContext, send: Send, recipients: readonly SendRecipient[], heartbeat?: () => void): Promise<void> {
  if (!send.gift_product_id || send.gift_amount_cents === null) return;
  const waiting = recipients.filter((r) => r.status === 'pending' && r.claimed_at === null && r.recipient_email);
  if (waiting.length) {
    const gift = await storedGift(ctx, send.account_id, { product_id: send.gift_product_id, amount_cents: send.gift_amount_cents });
    const settings = await loadSettings(ctx, send.account_id);
    const orders = await writeTransaction(ctx.models.sequelize, (transaction) =>
      createOrders(
        ctx,
        { accountId: send.account_id, scope: 'widget', gift, spendDay: send.gift_spend_day ?? dayOf(ctx.now()), claimExpiryDays: settings.claim_expiry_days, holder: { table: 'sends', id: send.id } },
        waiting.map((r) => ({ orderKey: `send:${send.send_id}:${r.position}`, sendPk: send.id, sendRecipientId: r.id, memberId: null, recipientName: r.recipient_name, recipientEmail: r.recipient_email })),
        transaction,
      ),
    );
    const failed = orders.filter((o) => o.fulfillment_status === 'failed' && o.send_recipient_id !== null);
    for (const reason of new Set(failed.map((o) => o.failure_reason ?? 'failed'))) {
      await failRecipients(ctx, failed.filter((o) => (o.failure_reason ?? 'failed') === reason).map((o) => o.send_recipient_id!), `gift ${reason}: the gift card could not be had, so no email was sent`);
    }
  }
  await buyPendingGifts(ctx, [send.id], heartbeat);
}
