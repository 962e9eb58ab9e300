// What can be given: the manual pool's products (`manual:<brand>:<denomination>`, one per brand and face value
// with codes uploaded) or a provider's catalog (`<provider>:<sku>`), and the check of a requested gift against
// the account's bounds and the product (422 gift_amount_invalid / gift_product_unknown).
import { col, fn, Op, type Transaction } from 'sequelize';
import { giftAmountInvalid, giftProductUnknown } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { ServiceContext } from '../context.ts';
import { amountText, isWholeCents, toCents } from './money.ts';
import { loadSettings, type GiftSettingsView } from './settings.ts';
import { SIMULATED_CATALOG } from './simulated-catalog.ts';

export interface Product {
  product_id: string;
  brand: string;
  name: string;
  /** A manual product's face value; null for a provider product with a range of amounts. */
  denomination_cents: number | null;
  min_cents: number;
  max_cents: number;
  currency: string;
  countries: string[];
  /** Codes left (manual); null when stock is not counted (provider, the sandbox's generated codes). */
  available: number | null;
}

/** Where a resolved gift's code comes from. */
export type GiftSource = 'manual' | 'sandbox' | 'simulated';

export interface ResolvedGift {
  product_id: string;
  brand: string;
  amount_cents: number;
  currency: string;
  source: GiftSource;
  /** Manual codes: the pool's brand and face value. */
  pool: { brand: string; denomination_cents: number } | null;
  /** Provider products: the provider's sku. */
  sku: string | null;
}

export const manualProductId = (brand: string, cents: number) => `manual:${brand}:${amountText(cents)}`;

/** Today's date (UTC) as codes' expiry dates are written: a code expiring today is no longer handed out. */
const todayOf = (ctx: Pick<ServiceContext, 'now'>) => ctx.now().toISOString().slice(0, 10);

/** Codes not given to an order, not held for a send and not expired, of the account's pools (or one pool). */
export function availableCodesWhere(ctx: Pick<ServiceContext, 'now'>, accountId: number, pool?: { brand: string; denomination_cents: number }) {
  return {
    account_id: accountId,
    order_id: { [Op.is]: null },
    held_send_id: { [Op.is]: null },
    [Op.or]: [{ expires_on: { [Op.is]: null } }, { expires_on: { [Op.gt]: todayOf(ctx) } }],
    ...(pool ? { brand: pool.brand, denomination_cents: pool.denomination_cents } : {}),
  };
}

/** How many codes of the pool can still be handed out. */
export async function availableCodes(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number, pool: { brand: string; denomination_cents: number }, transaction?: Transaction): Promise<number> {
  return ctx.models.GiftCode.count({ where: availableCodesWhere(ctx, accountId, pool), ...(transaction ? { transaction } : {}) });
}

async function manualProducts(ctx: Pick<ServiceContext, 'models' | 'now'>, account: Account, settings: GiftSettingsView): Promise<Product[]> {
  const { models } = ctx;
  // The sandbox hands out generated TEST- codes: its catalog is its own pool's products and its live account's.
  const owners = settings.sandbox && account.live_account_id ? [account.id, account.live_account_id] : [account.id];
  const pools = (await models.GiftCode.findAll({
    attributes: ['brand', 'denomination_cents', 'currency'],
    where: { account_id: owners },
    group: ['brand', 'denomination_cents', 'currency'],
    order: [['brand', 'ASC'], ['denomination_cents', 'ASC']],
    raw: true,
  })) as Array<{ brand: string; denomination_cents: number; currency: string }>;
  const counts = settings.sandbox
    ? new Map<string, number>()
    : new Map(
        ((await models.GiftCode.findAll({
          attributes: ['brand', 'denomination_cents', [fn('COUNT', col('id')), 'n']],
          where: availableCodesWhere(ctx, account.id),
          group: ['brand', 'denomination_cents'],
          raw: true,
        })) as unknown as Array<{ brand: string; denomination_cents: number; n: number | string }>).map((r) => [`${r.brand}\u0000${r.denomination_cents}`, Number(r.n)]),
      );
  const seen = new Set<string>();
  return pools.flatMap((p) => {
    const key = `${p.brand}\u0000${p.denomination_cents}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [
      {
        product_id: manualProductId(p.brand, p.denomination_cents),
        brand: p.brand,
        name: `${p.brand} ${amountText(p.denomination_cents)} ${p.currency}`,
        denomination_cents: p.denomination_cents,
        min_cents: p.denomination_cents,
        max_cents: p.denomination_cents,
        currency: p.currency,
        countries: [],
        available: settings.sandbox ? null : (counts.get(key) ?? 0),
      },
    ];
  });
}

function providerProducts(provider: string | null, currency: string): Product[] {
  if (provider !== 'simulated') return [];
  return SIMULATED_CATALOG.map((p) => ({
    product_id: `simulated:${p.sku}`,
    brand: p.brand,
    name: p.name,
    denomination_cents: null,
    min_cents: p.min_cents,
    max_cents: p.max_cents,
    currency,
    countries: [...p.countries],
    available: null,
  }));
}

/** The products the account's mode offers (`country`: provider products sold there). */
export async function listProducts(ctx: Pick<ServiceContext, 'models' | 'config' | 'now'>, account: Account, country?: string): Promise<Product[]> {
  const settings = await loadSettings(ctx, account.id);
  if (settings.provider_mode === 'manual') return manualProducts(ctx, account, settings);
  const products = providerProducts(settings.provider, settings.currency);
  return country ? products.filter((p) => p.countries.includes(country.toUpperCase())) : products;
}

const invalidAmount = (message: string) => giftAmountInvalid(message);

/** The amount in cents, if it is money within the account's bounds (whatever the velocity setting); else 422. */
export function checkGiftAmount(settings: GiftSettingsView, amount: number): number {
  const cents = toCents(amount);
  if (!Number.isFinite(amount) || !isWholeCents(amount) || cents < settings.min_cents || cents > settings.max_cents) {
    throw invalidAmount(
      `The gift amount ${settings.currency} ${amount} is outside this account's bounds (${amountText(settings.min_cents)} to ${amountText(settings.max_cents)} ${settings.currency})`,
    );
  }
  return cents;
}

/** Checks a requested gift (product and amount) against the account's settings and catalog. */
export async function resolveGift(
  ctx: Pick<ServiceContext, 'models' | 'config' | 'now'>,
  account: Account,
  gift: { product_id: string; amount: number },
  settings?: GiftSettingsView,
): Promise<ResolvedGift> {
  const current = settings ?? (await loadSettings(ctx, account.id));
  const cents = checkGiftAmount(current, gift.amount);
  const products = await listProducts(ctx, account);
  const product = products.find((p) => p.product_id === gift.product_id);
  if (!product) {
    const hint = current.provider_mode === 'provider' && !current.provider ? ' (no provider is configured for live accounts: REWARDS_PROVIDER)' : '';
    throw giftProductUnknown(`No reward product ${JSON.stringify(gift.product_id)} in this account's ${current.provider_mode} catalog${hint} (GET /gift-card/listProducts lists them)`);
  }
  if (product.denomination_cents !== null && cents !== product.denomination_cents) {
    throw invalidAmount(`${product.product_id} is a ${amountText(product.denomination_cents)} ${product.currency} card; the amount must be ${amountText(product.denomination_cents)} (got ${gift.amount})`);
  }
  if (cents < product.min_cents || cents > product.max_cents) {
    throw invalidAmount(`${product.product_id} takes ${amountText(product.min_cents)} to ${amountText(product.max_cents)} ${product.currency} (got ${gift.amount})`);
  }
  const manual = current.provider_mode === 'manual';
  return {
    product_id: product.product_id,
    brand: product.brand,
    amount_cents: cents,
    currency: current.currency,
    source: current.sandbox && manual ? 'sandbox' : manual ? 'manual' : 'simulated',
    pool: manual ? { brand: product.brand, denomination_cents: product.denomination_cents! } : null,
    sku: manual ? null : product.product_id.slice(product.product_id.indexOf(':') + 1),
  };
}

/**
 * The gift a send, campaign or automation stored (checked when it was accepted or saved), as its orders need it:
 * the product id says where codes come from, whatever the settings say now.
 */
export async function storedGift(ctx: Pick<ServiceContext, 'models' | 'config' | 'now'>, accountId: number, gift: { product_id: string; amount_cents: number }): Promise<ResolvedGift> {
  const settings = await loadSettings(ctx, accountId);
  const [prefix = '', ...rest] = gift.product_id.split(':');
  if (prefix === 'manual') {
    const brand = rest.slice(0, -1).join(':');
    const denomination = toCents(Number(rest[rest.length - 1]));
    return {
      product_id: gift.product_id,
      brand,
      amount_cents: gift.amount_cents,
      currency: settings.currency,
      source: settings.sandbox ? 'sandbox' : 'manual',
      pool: { brand, denomination_cents: denomination },
      sku: null,
    };
  }
  const sku = rest.join(':');
  const product = SIMULATED_CATALOG.find((p) => p.sku === sku);
  return { product_id: gift.product_id, brand: product?.brand ?? sku, amount_cents: gift.amount_cents, currency: settings.currency, source: 'simulated', pool: null, sku };
}
