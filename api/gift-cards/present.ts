// How rewards are shown: amounts in currency units (the database keeps cents), times in ISO 8601, codes and claim
// links masked (`****` + last 4), and nothing else of an order's secrets.
import type { z } from 'zod';
import type { GiftAnalytics, Tally } from '../../services/rewards/analytics.ts';
import type { Product as ProductRow } from '../../services/rewards/catalog.ts';
import { masked } from '../../services/rewards/crypto.ts';
import type { PoolStock } from '../../services/rewards/inventory-view.ts';
import { fromCents } from '../../services/rewards/money.ts';
import type { ListedOrder } from '../../services/rewards/orders-list.ts';
import type { RulesView } from '../../services/rewards/rules-view.ts';
import type { GiftSettingsView } from '../../services/rewards/settings.ts';
import type { Analytics, GiftSettings, InventoryList, Order, Product, Rules } from './schema.ts';

export function presentSettings(s: GiftSettingsView): z.input<typeof GiftSettings> {
  return {
    provider_mode: s.provider_mode,
    provider: s.provider,
    currency: s.currency,
    min_amount: fromCents(s.min_cents),
    max_amount: fromCents(s.max_cents),
    velocity_limits_enabled: s.velocity_limits_enabled,
    claim_expiry_days: s.claim_expiry_days,
  };
}

export function presentProduct(p: ProductRow): z.input<typeof Product> {
  return {
    product_id: p.product_id,
    brand: p.brand,
    name: p.name,
    denomination: p.denomination_cents === null ? null : fromCents(p.denomination_cents),
    min_amount: fromCents(p.min_cents),
    max_amount: fromCents(p.max_cents),
    currency: p.currency,
    countries: [...p.countries],
    available: p.available,
  };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentOrder({ order: o, sendId, code, claimLink }: ListedOrder): z.input<typeof Order> {
  return {
    id: o.id,
    scope: o.scope,
    campaign_id: o.campaign_id,
    automation_id: o.automation_id,
    send_id: sendId,
    recipient_name: o.recipient_name,
    recipient_email: o.recipient_email,
    product_id: o.product_id,
    brand: o.brand,
    amount: fromCents(o.amount_cents),
    currency: o.currency,
    payment_status: o.payment_status,
    fulfillment_status: o.fulfillment_status,
    claim_status: o.claim_status,
    code_masked: code ? masked(code.last4) : null,
    claim_url_masked: claimLink ? masked(claimLink.last4) : null,
    createdat: o.created_at.toISOString(),
    fulfilledat: iso(o.fulfilled_at),
    claimedat: iso(o.claimed_at),
    expiresat: iso(o.expires_at),
  };
}

export function presentRules(view: RulesView): z.input<typeof Rules> {
  return {
    enforced: view.enforced,
    currency: view.currency,
    rules: view.rules.map((r) => ({
      period: r.period,
      limit: fromCents(r.limit_cents),
      used: fromCents(r.used_cents),
      remaining: fromCents(r.remaining_cents),
      resets_at: r.resets_at.toISOString(),
    })),
  };
}

export function presentInventory(pools: readonly PoolStock[]): z.input<typeof InventoryList> {
  return pools.map((p) => ({ brand: p.brand, denomination: fromCents(p.denomination_cents), currency: p.currency, available: p.available, assigned: p.assigned }));
}

const tally = (t: Tally) => ({ count: t.count, total: fromCents(t.cents) });
const tallies = <K extends string>(byKey: Record<K, Tally>) => Object.fromEntries(Object.entries<Tally>(byKey).map(([k, t]) => [k, tally(t)])) as Record<K, { count: number; total: number }>;

export function presentAnalytics(a: GiftAnalytics): z.input<typeof Analytics> {
  return {
    currency: a.currency,
    orders: tally(a.orders),
    payment_status: tallies(a.payment_status),
    fulfillment_status: tallies(a.fulfillment_status),
    claim_status: tallies(a.claim_status),
    scope: tallies(a.scope),
    spend: fromCents(a.spend_cents),
    claim_rate: a.claim_rate,
  };
}
