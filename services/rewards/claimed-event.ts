// `gift_claimed` (an outcome event, decisions.md "Delivery outcomes and local time"): written in the transaction of
// the conditional update that marked the order claimed (the claim page's reveal), so once per order; nothing without
// a subscriber. The code is masked as the order list masks it; the recipient is not named (the send says whose card).
import type { Transaction } from 'sequelize';
import type { GiftOrder } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';
import { recordSummaryEvent, sendOf, type OutcomeSend } from '../sends/delivery/outcome-events.ts';
import { last4Of, masked } from './crypto.ts';
import { fromCents } from './money.ts';

export interface GiftClaimedEvent {
  event_id: string;
  event_type: 'gift_claimed';
  timestamp: string;
  order: { id: number; code_masked: string; amount: number; currency: string; claimed_at: string };
  /** The send that carried the gift; null for an order without one. */
  send: OutcomeSend | null;
}

/** In the claim's transaction (under the account's lock), with the order as the claim left it and its code. */
export async function recordGiftClaimed(ctx: Pick<ServiceContext, 'models' | 'nudge' | 'now'>, order: GiftOrder, code: string, transaction: Transaction): Promise<void> {
  await recordSummaryEvent<GiftClaimedEvent>(ctx, order.account_id, 'gift_claimed', 'rewards', async (now) => {
    const send = order.send_id === null ? null : await ctx.models.Send.findByPk(order.send_id, { transaction });
    return {
      event_id: crypto.randomUUID(),
      event_type: 'gift_claimed',
      timestamp: now.toISOString(),
      order: { id: order.id, code_masked: masked(order.code_last4 ?? last4Of(code)), amount: fromCents(order.amount_cents), currency: order.currency, claimed_at: order.claimed_at!.toISOString() },
      send: send ? sendOf(send, false) : null,
    };
  }, transaction);
}

/** A sample of invented data, for test sends. */
export function sampleGiftClaimed(now: Date): GiftClaimedEvent {
  return {
    event_id: crypto.randomUUID(),
    event_type: 'gift_claimed',
    timestamp: now.toISOString(),
    order: { id: 5001, code_masked: '****7QX2', amount: 25, currency: 'USD', claimed_at: now.toISOString() },
    send: { sendId: '00000000-0000-4000-8000-000000000001', origin: 'single', ecardid: 1001, widgetid: 2001, campaign_id: null, automation_id: null },
  };
}
