// How an order ends when its gift cannot reach the recipient: one not fulfilled yet fails (`failed/failed`, its
// spend released); one fulfilled whose email SMTP refused (or whose send was canceled) is refunded
// (`refunded/canceled`: spend released, the manual code back in the pool, the provider's purchase refunded). An
// unknown outcome (the email may have left) leaves it fulfilled. Each move is a conditional UPDATE, so a move made
// twice (a retried activity) releases once.
import { Op, type Transaction } from 'sequelize';
import type { GiftOrder } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';
import { OUTCOME_UNKNOWN } from '../sends/delivery/delivery.ts';
import { subscribedTypes } from '../sends/delivery/outcome-events.ts';
import { returnCode } from './inventory.ts';
import { providerNamed } from './provider.ts';
import { releaseSpend } from './spend.ts';

const opts = (transaction?: Transaction) => (transaction ? { transaction } : {});

/** Orders not fulfilled yet → failed (out_of_stock, declined, the email failed first); their spend released. */
export async function failOrders(ctx: Pick<ServiceContext, 'models'>, orders: readonly GiftOrder[], reason: string, transaction?: Transaction): Promise<void> {
  for (const order of orders) {
    const [changed] = await ctx.models.GiftOrder.update(
      { payment_status: 'failed', fulfillment_status: 'failed', failure_reason: reason.slice(0, 200) },
      { where: { id: order.id, fulfillment_status: 'pending' }, ...opts(transaction) },
    );
    if (changed) await releaseSpend(ctx, order.account_id, { cents: order.amount_cents, day: order.spend_day }, transaction);
  }
}

/** A fulfilled order whose gift never reached its recipient → refunded/canceled. */
export async function refundOrder(ctx: ServiceContext, order: GiftOrder, reason: string): Promise<void> {
  if (order.fulfillment_status !== 'fulfilled') return;
  // The provider first: a crash after it leaves the order to be refunded again, which the provider takes as done.
  if (order.source !== 'manual' && order.source !== 'sandbox') await providerNamed(ctx, order.source).refund(String(order.id));
  await ctx.models.sequelize.transaction(async (transaction) => {
    const [changed] = await ctx.models.GiftOrder.update(
      { payment_status: 'refunded', fulfillment_status: 'canceled', failure_reason: reason.slice(0, 200), claim_token_hash: null, code_id: null },
      { where: { id: order.id, fulfillment_status: 'fulfilled', claim_status: 'unclaimed' }, transaction },
    );
    if (!changed) return;
    await releaseSpend(ctx, order.account_id, { cents: order.amount_cents, day: order.spend_day }, transaction);
    if (order.code_id !== null) await returnCode(ctx, order.code_id, order.id, transaction);
  });
}

/**
 * The recipients (send_recipients ids) fail without an email: their gift could not be had. A bulk send's recipient
 * (campaign, automation: the send ends here) is marked for its ecard_failed when an endpoint takes it, announced with
 * its batch's outcomes (services/sends/delivery/outcome-marks.ts); a single send's are written when the send ends (dispatch).
 */
export async function failRecipients(ctx: ServiceContext, recipientIds: readonly number[], reason: string, transaction?: Transaction): Promise<void> {
  if (recipientIds.length === 0) return;
  const { models } = ctx;
  const where = { id: [...recipientIds], status: 'pending', claimed_at: { [Op.is]: null } };
  const rows = await models.SendRecipient.findAll({ attributes: ['id', 'send_id'], where, raw: true, ...opts(transaction) });
  if (rows.length === 0) return;
  const sends = await models.Send.findAll({ attributes: ['id', 'account_id', 'origin'], where: { id: [...new Set(rows.map((r) => r.send_id))] }, raw: true, ...opts(transaction) });
  const bulk = new Set(sends.filter((s) => s.origin === 'campaign' || s.origin === 'automation').map((s) => s.id));
  const announce = bulk.size > 0 && (await subscribedTypes(ctx, sends[0]!.account_id, ['ecard_failed'], transaction)).size > 0;
  const failed = { status: 'failed', error: reason.slice(0, 1000), finished_at: ctx.now() } as const;
  const bulkIds = rows.filter((r) => bulk.has(r.send_id)).map((r) => r.id);
  const otherIds = rows.filter((r) => !bulk.has(r.send_id)).map((r) => r.id);
  if (bulkIds.length) await models.SendRecipient.update({ ...failed, ...(announce ? { announce_event: 'ecard_failed' } : {}) }, { where: { ...where, id: bulkIds }, ...opts(transaction) });
  if (otherIds.length) await models.SendRecipient.update(failed, { where: { ...where, id: otherIds }, ...opts(transaction) });
  // A send whose recipients all failed fails (bulk sends have one recipient; a send-ecard send finishes in its dispatch).
  const sendPks = sends.map((s) => s.id);
  const stillPending = new Set(
    (await models.SendRecipient.findAll({ attributes: ['send_id'], where: { send_id: sendPks, status: 'pending' }, raw: true, ...opts(transaction) })).map((r) => r.send_id),
  );
  const done = sendPks.filter((id) => !stillPending.has(id));
  if (done.length) await models.Send.update({ status: 'failed', error: reason.slice(0, 1000) }, { where: { id: done, status: 'pending', origin: ['campaign', 'automation'] }, ...opts(transaction) });
}

/**
 * After a delivery (or a cancel): each order of these sends whose recipient failed for sure or was canceled ends
 * (pending → failed, fulfilled → refunded). Safe to run again.
 */
export async function settleGiftOrders(ctx: ServiceContext, sendPks: readonly number[]): Promise<void> {
  const { models } = ctx;
  if (sendPks.length === 0) return;
  const open = await models.GiftOrder.findAll({ where: { send_id: [...sendPks], fulfillment_status: ['pending', 'fulfilled'] }, order: [['id', 'ASC']] });
  if (open.length === 0) return;
  const recipients = new Map(
    (
      await models.SendRecipient.findAll({ attributes: ['id', 'status', 'error'], where: { id: open.flatMap((o) => (o.send_recipient_id ? [o.send_recipient_id] : [])) }, raw: true })
    ).map((r) => [r.id, r]),
  );
  for (const order of open) {
    const r = order.send_recipient_id ? recipients.get(order.send_recipient_id) : undefined;
    if (!r) continue;
    const ended = r.status === 'canceled' || (r.status === 'failed' && !r.error?.startsWith(OUTCOME_UNKNOWN));
    if (!ended) continue;
    const reason = r.status === 'canceled' ? `canceled: ${r.error ?? 'the send was canceled'}` : `email_failed: ${r.error ?? 'the email could not be delivered'}`;
    if (order.fulfillment_status === 'pending') await failOrders(ctx, [order], reason);
    else await refundOrder(ctx, order, reason);
  }
}
