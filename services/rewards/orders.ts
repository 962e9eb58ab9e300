// Orders, made in each gifted recipient's claim transaction (unique order_key, so a retried claim finds its
// order): `pending/pending/unclaimed`, then at once `paid/fulfilled` with a manual code (or the sandbox's
// generated TEST- code), or `failed/failed` (out_of_stock: the recipient fails, no email). Provider orders stay
// pending until the buy (provider-buys.ts). Each order takes its share of the holder's spend reservation.
import { randomBytes } from 'node:crypto';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { GiftOrder, GiftScope } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';
import type { ResolvedGift } from './catalog.ts';
import { aadOf, last4Of } from './crypto.ts';
import { keysOrThrow, seal } from '../../lib/sealing.ts';
import { assignCodes } from './inventory.ts';
import { failOrders } from './settle.ts';
import { takeFromReservation, type Holder } from './reservations.ts';

export interface OrderDraft {
  orderKey: string;
  sendPk: number;
  sendRecipientId: number;
  memberId: number | null;
  recipientName: string;
  recipientEmail: string | null;
}

export interface OrderBatch {
  accountId: number;
  scope: GiftScope;
  campaignId?: number | null;
  automationId?: number | null;
  gift: ResolvedGift;
  /** The UTC day the spend counts in (the reservation's). */
  spendDay: string;
  claimExpiryDays: number;
  /** Where the spend was reserved (send-ecard, campaign); automations reserve per recipient themselves. */
  holder: { table: Holder; id: number } | null;
}

/** `TEST-XXXX-XXXX-XXXX`: a sandbox gift's code, made up, worth nothing. */
const testCode = () => `TEST-${randomBytes(6).toString('hex').toUpperCase().match(/.{4}/g)!.join('-')}`;

/** The claim transaction's part: the orders of these recipients, made once, and fulfilled where they can be now. */
export async function createOrders(ctx: ServiceContext, batch: OrderBatch, drafts: readonly OrderDraft[], transaction: Transaction): Promise<GiftOrder[]> {
  const { models } = ctx;
  if (drafts.length === 0) return [];
  const keys = drafts.map((d) => d.orderKey);
  const existing = new Set((await models.GiftOrder.findAll({ attributes: ['order_key'], where: { order_key: keys }, raw: true, transaction })).map((o) => o.order_key));
  const fresh = drafts.filter((d) => !existing.has(d.orderKey));
  if (fresh.length) {
    const { gift } = batch;
    await models.GiftOrder.bulkCreate(
      fresh.map((d) => ({
        account_id: batch.accountId,
        order_key: d.orderKey,
        scope: batch.scope,
        campaign_id: batch.campaignId ?? null,
        automation_id: batch.automationId ?? null,
        send_id: d.sendPk,
        send_recipient_id: d.sendRecipientId,
        member_id: d.memberId,
        recipient_name: d.recipientName.slice(0, 200),
        recipient_email: d.recipientEmail,
        product_id: gift.product_id,
        brand: gift.brand,
        amount_cents: gift.amount_cents,
        currency: gift.currency,
        source: gift.source,
        spend_day: batch.spendDay,
      })),
      { transaction },
    );
    if (batch.holder) await takeFromReservation(ctx, batch.holder.table, batch.holder.id, batch.accountId, gift.amount_cents * fresh.length, batch.spendDay, transaction);
  }
  const orders = await models.GiftOrder.findAll({ where: { order_key: keys }, order: [['id', 'ASC']], transaction });
  const pending = orders.filter((o) => o.fulfillment_status === 'pending');
  if (batch.gift.source === 'manual') await fulfilFromPool(ctx, batch, pending, transaction);
  else if (batch.gift.source === 'sandbox') await fulfilWithTestCodes(ctx, batch, pending, transaction);
  return models.GiftOrder.findAll({ where: { order_key: keys }, order: [['id', 'ASC']], transaction });
}

const expiresAt = (now: Date, days: number) => new Date(now.getTime() + days * 86_400_000);

async function fulfilFromPool(ctx: ServiceContext, batch: OrderBatch, pending: GiftOrder[], transaction: Transaction): Promise<void> {
  const { models } = ctx;
  if (pending.length === 0) return;
  // A send-ecard send's codes were held for it at accept: those first.
  const heldBy = batch.holder?.table === 'sends' ? batch.holder.id : null;
  const given = await assignCodes(ctx, batch.accountId, batch.gift.pool!, pending.map((o) => o.id), transaction, heldBy);
  if (given.length) {
    const now = ctx.now();
    // The code and its last 4 characters come from the code row that now names the order (another table, so no 1093).
    await models.sequelize.query(
      `UPDATE gift_orders SET payment_status = 'paid', fulfillment_status = 'fulfilled', fulfilled_at = :now, expires_at = :expires, updated_at = :now,
         code_id = (SELECT c.id FROM gift_codes c WHERE c.order_id = gift_orders.id),
         code_last4 = (SELECT c.code_last4 FROM gift_codes c WHERE c.order_id = gift_orders.id)
       WHERE id IN (${given.map(Number).join(', ')}) AND fulfillment_status = 'pending'`,
      { replacements: { now, expires: expiresAt(now, batch.claimExpiryDays) }, type: QueryTypes.UPDATE, transaction },
    );
  }
  const givenSet = new Set(given);
  const empty = pending.filter((o) => !givenSet.has(o.id));
  if (empty.length) await failOrders(ctx, empty, 'out_of_stock', transaction);
}

async function fulfilWithTestCodes(ctx: ServiceContext, batch: OrderBatch, pending: GiftOrder[], transaction: Transaction): Promise<void> {
  const keys = keysOrThrow(ctx.dataKeys);
  const now = ctx.now();
  for (const order of pending) {
    const code = testCode();
    const sealed = seal(keys, aadOf(order.account_id, order.product_id), code);
    await ctx.models.GiftOrder.update(
      {
        payment_status: 'paid',
        fulfillment_status: 'fulfilled',
        code_ciphertext: sealed.ciphertext,
        key_id: sealed.keyId,
        code_last4: last4Of(code),
        fulfilled_at: now,
        expires_at: expiresAt(now, batch.claimExpiryDays),
      },
      { where: { id: order.id, fulfillment_status: 'pending' }, transaction },
    );
  }
}

/** Orders of these sends' recipients still waiting for something (a buy), or all of them. */
export function ordersOfSends(ctx: Pick<ServiceContext, 'models'>, sendPks: readonly number[], only?: { fulfillment_status: GiftOrder['fulfillment_status'][] }) {
  if (sendPks.length === 0) return Promise.resolve([] as GiftOrder[]);
  return ctx.models.GiftOrder.findAll({
    where: { send_id: { [Op.in]: [...sendPks] }, ...(only ? { fulfillment_status: only.fulfillment_status } : {}) },
    order: [['id', 'ASC']],
  });
}
