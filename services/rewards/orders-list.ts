// The order list of `GET /gift-card/listOrders`: an account's gift orders, newest first, filtered and paged, with
// what the response may say about each code and claim link (whether one exists, its last 4), never the secrets.
import type { ServiceContext } from '../context.ts';
import { literal, Op, type WhereOptions } from 'sequelize';
import { notFound } from '../../lib/errors.ts';
import type { ClaimStatus, FulfillmentStatus, GiftOrder, GiftScope, PaymentStatus } from '../../models/Gift.ts';

export interface OrderQuery {
  page: number;
  perPage: number;
  paymentStatus?: PaymentStatus | undefined;
  fulfillmentStatus?: FulfillmentStatus | undefined;
  claimStatus?: ClaimStatus | undefined;
  scope?: GiftScope | undefined;
  campaignId?: number | undefined;
  automationId?: number | undefined;
  /** Inclusive bounds on the order's creation time. */
  dateFrom?: Date | undefined;
  dateTo?: Date | undefined;
}

/** An order as the list shows it; the code's and the link's secrets are not even read. */
export interface ListedOrder {
  order: GiftOrder;
  /** The public id (UUID) of the send that carries the gift, if any. */
  sendId: string | null;
  /** A code was handed to this order at some point (kept masked after a refund too), with its last 4 when kept. */
  code: { last4: string | null } | null;
  /** A claim link was issued, with its last 4. */
  claimLink: { last4: string | null } | null;
}

// Everything but the ciphertexts: a list never decrypts, so it never loads them.
const ATTRIBUTES = [
  'id', 'scope', 'campaign_id', 'automation_id', 'send_id', 'recipient_name', 'recipient_email', 'product_id', 'brand',
  'amount_cents', 'currency', 'payment_status', 'fulfillment_status', 'claim_status', 'code_id', 'code_last4',
  'claim_token_hash', 'claim_last4', 'fulfilled_at', 'claimed_at', 'expires_at', 'created_at',
] as const;

/** A campaign or automation filter is a reference: one that is unknown or another account's is a 404. */
async function checkReferences(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: OrderQuery): Promise<void> {
  const { models } = ctx;
  if (query.campaignId !== undefined) {
    const found = await models.Campaign.findOne({ where: { id: query.campaignId, account_id: accountId }, attributes: ['id'] });
    if (!found) throw notFound(`No campaign with id ${query.campaignId}`);
  }
  if (query.automationId !== undefined) {
    const found = await models.Automation.findOne({ where: { id: query.automationId, account_id: accountId }, attributes: ['id'] });
    if (!found) throw notFound(`No automation with id ${query.automationId}`);
  }
}

function whereOf(accountId: number, query: OrderQuery): WhereOptions {
  const where: Record<string | symbol, unknown> = { account_id: accountId };
  if (query.paymentStatus) where.payment_status = query.paymentStatus;
  if (query.fulfillmentStatus) where.fulfillment_status = query.fulfillmentStatus;
  if (query.claimStatus) where.claim_status = query.claimStatus;
  if (query.scope) where.scope = query.scope;
  if (query.campaignId !== undefined) where.campaign_id = query.campaignId;
  if (query.automationId !== undefined) where.automation_id = query.automationId;
  if (query.dateFrom || query.dateTo) {
    where.created_at = { ...(query.dateFrom ? { [Op.gte]: query.dateFrom } : {}), ...(query.dateTo ? { [Op.lte]: query.dateTo } : {}) };
  }
  return where;
}

export async function listOrders(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: OrderQuery): Promise<{ rows: ListedOrder[]; count: number }> {
  const { models } = ctx;
  await checkReferences(ctx, accountId, query);
  const { rows, count } = await models.GiftOrder.findAndCountAll({
    // Whether a provider's (or the sandbox's) code is stored, without reading it.
    attributes: [...ATTRIBUTES, [literal('CASE WHEN code_ciphertext IS NULL THEN 0 ELSE 1 END'), 'has_code']],
    where: whereOf(accountId, query),
    order: [['created_at', 'DESC'], ['id', 'DESC']],
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  });
  const sendIds = [...new Set(rows.map((o) => o.send_id).filter((id): id is number => id !== null))];
  const sends = sendIds.length ? await models.Send.findAll({ where: { id: sendIds, account_id: accountId }, attributes: ['id', 'send_id'] }) : [];
  const publicId = new Map(sends.map((s) => [s.id, s.send_id]));
  // A pool code's last 4 live on the code too: used when the order did not keep them.
  const codeIds = [...new Set(rows.filter((o) => o.code_id !== null && o.code_last4 === null).map((o) => o.code_id!))];
  const codes = codeIds.length ? await models.GiftCode.findAll({ where: { id: codeIds, account_id: accountId }, attributes: ['id', 'code_last4'] }) : [];
  const codeLast4 = new Map(codes.map((c) => [c.id, c.code_last4]));
  return {
    count,
    rows: rows.map((order) => {
      // fulfilled_at stays after a refund hands a pool code back (and code_id may be cleared then).
      const stored = Number((order.dataValues as Record<string, unknown>).has_code) === 1;
      const codeGiven = stored || order.code_id !== null || order.code_last4 !== null || order.fulfilled_at !== null;
      const linkIssued = order.claim_token_hash !== null || order.claim_last4 !== null;
      return {
        order,
        sendId: order.send_id !== null ? (publicId.get(order.send_id) ?? null) : null,
        code: codeGiven ? { last4: order.code_last4 ?? (order.code_id !== null ? (codeLast4.get(order.code_id) ?? null) : null) } : null,
        claimLink: linkIssued ? { last4: order.claim_last4 } : null,
      };
    }),
  };
}
