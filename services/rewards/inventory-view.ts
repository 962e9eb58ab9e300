// The stock of `GET /gift-card/rewardInventory`: per pool (brand, face value, currency) of the account's uploaded
// codes, how many can still be handed out and how many were given to orders. Expired unassigned codes are neither.
import { col, fn } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { availableCodesWhere } from './catalog.ts';

export interface PoolStock {
  brand: string;
  denomination_cents: number;
  currency: string;
  available: number;
  assigned: number;
}

interface Counted {
  brand: string;
  denomination_cents: number | string;
  currency: string;
  n: number | string;
}

const keyOf = (r: { brand: string; denomination_cents: number | string; currency: string }) => `${r.brand}\u0000${Number(r.denomination_cents)}\u0000${r.currency}`;

export async function rewardInventory(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number): Promise<PoolStock[]> {
  const { GiftCode } = ctx.models;
  const group = ['brand', 'denomination_cents', 'currency'];
  // COUNT(order_id) counts the assigned codes only (NULLs are not counted).
  const [pools, available] = (await Promise.all([
    GiftCode.findAll({ attributes: [...group, [fn('COUNT', col('order_id')), 'n']], where: { account_id: accountId }, group, raw: true }),
    GiftCode.findAll({ attributes: [...group, [fn('COUNT', col('id')), 'n']], where: availableCodesWhere(ctx, accountId), group, raw: true }),
  ])) as unknown as [Counted[], Counted[]];
  const availableOf = new Map(available.map((r) => [keyOf(r), Number(r.n)]));
  return pools
    .map((p) => ({
      brand: p.brand,
      denomination_cents: Number(p.denomination_cents),
      currency: p.currency,
      available: availableOf.get(keyOf(p)) ?? 0,
      assigned: Number(p.n),
    }))
    .sort((a, b) => (a.brand < b.brand ? -1 : a.brand > b.brand ? 1 : a.denomination_cents - b.denomination_cents || (a.currency < b.currency ? -1 : 1)));
}
