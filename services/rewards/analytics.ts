// The figures of `GET /gift-card/analytics`: an account's orders counted and summed (face value, cents) by each
// status and by scope, its spend and its claim rate, from one grouped query.
import { col, fn } from 'sequelize';
import { CLAIM_STATUSES, FULFILLMENT_STATUSES, GIFT_SCOPES, PAYMENT_STATUSES } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';
import { loadSettings } from './settings.ts';

export interface Tally {
  count: number;
  cents: number;
}

type Tallies<K extends string> = Record<K, Tally>;

export interface GiftAnalytics {
  currency: string;
  orders: Tally;
  payment_status: Tallies<(typeof PAYMENT_STATUSES)[number]>;
  fulfillment_status: Tallies<(typeof FULFILLMENT_STATUSES)[number]>;
  claim_status: Tallies<(typeof CLAIM_STATUSES)[number]>;
  scope: Tallies<(typeof GIFT_SCOPES)[number]>;
  /**
   * What was paid and not refunded: the face value of the orders whose payment is `paid` now. (An order paid and
   * then refunded moves from `paid` to `refunded`, so "paid − refunded" over every order ever paid is exactly this.)
   */
  spend_cents: number;
  /** Orders claimed over orders fulfilled (a claimed order is fulfilled); 0 when none is fulfilled. */
  claim_rate: number;
}

const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, { count: 0, cents: 0 }])) as Tallies<K>;

interface Group {
  scope: string;
  payment_status: string;
  fulfillment_status: string;
  claim_status: string;
  n: number | string;
  cents: number | string | null;
}

function add(tallies: Record<string, Tally>, key: string, count: number, cents: number): void {
  // A value outside the enums (none is written) would still count in the totals, not in a breakdown.
  const tally = tallies[key];
  if (!tally) return;
  tally.count += count;
  tally.cents += cents;
}

export async function giftAnalytics(ctx: Pick<ServiceContext, 'models' | 'config'>, accountId: number): Promise<GiftAnalytics> {
  const [settings, groups] = await Promise.all([
    loadSettings(ctx, accountId),
    ctx.models.GiftOrder.findAll({
      attributes: ['scope', 'payment_status', 'fulfillment_status', 'claim_status', [fn('COUNT', col('id')), 'n'], [fn('SUM', col('amount_cents')), 'cents']],
      where: { account_id: accountId },
      group: ['scope', 'payment_status', 'fulfillment_status', 'claim_status'],
      raw: true,
    }) as unknown as Promise<Group[]>,
  ]);
  const result: GiftAnalytics = {
    currency: settings.currency,
    orders: { count: 0, cents: 0 },
    payment_status: zeros(PAYMENT_STATUSES),
    fulfillment_status: zeros(FULFILLMENT_STATUSES),
    claim_status: zeros(CLAIM_STATUSES),
    scope: zeros(GIFT_SCOPES),
    spend_cents: 0,
    claim_rate: 0,
  };
  let claimedOfFulfilled = 0;
  for (const g of groups) {
    // mysql2 answers COUNT and SUM as strings.
    const count = Number(g.n);
    const cents = Number(g.cents ?? 0);
    result.orders.count += count;
    result.orders.cents += cents;
    add(result.payment_status, g.payment_status, count, cents);
    add(result.fulfillment_status, g.fulfillment_status, count, cents);
    add(result.claim_status, g.claim_status, count, cents);
    add(result.scope, g.scope, count, cents);
    if (g.fulfillment_status === 'fulfilled' && g.claim_status === 'claimed') claimedOfFulfilled += count;
  }
  result.spend_cents = result.payment_status.paid.cents;
  const fulfilled = result.fulfillment_status.fulfilled.count;
  result.claim_rate = fulfilled === 0 ? 0 : Math.round((claimedOfFulfilled / fulfilled) * 10_000) / 10_000;
  return result;
}
