// A gift automation's spend, reserved at claim one card at a time (so the cards that fit go out and the rest fail
// `spendlimit`), in the claim's transaction; the orders follow once the cards' sends exist.
import type { Transaction } from 'sequelize';
import type { Account } from '../../models/Account.ts';
import type { ServiceContext } from '../context.ts';
import { parseGiftCard } from '../rewards/bulk-gift.ts';
import { storedGift, type ResolvedGift } from '../rewards/catalog.ts';
import { toCents } from '../rewards/money.ts';
import { dayOf } from '../rewards/periods.ts';
import { loadSettings } from '../rewards/settings.ts';
import { reserveSpend } from '../rewards/spend.ts';
import type { AutomationConfig } from './config.ts';

export interface AutomationGifts {
  gift: ResolvedGift | null;
  day: string;
  /** Rows whose gift's spend was reserved. */
  granted: number[];
  /** Rows a spend rule refused. */
  refused: number[];
}

export async function reserveAutomationGifts(ctx: ServiceContext, config: AutomationConfig, account: Account, rowIds: number[], transaction: Transaction): Promise<AutomationGifts> {
  const day = dayOf(ctx.now());
  const card = config.row.gift_card_enabled ? parseGiftCard(config.row.gift_card) : null;
  if (!card || rowIds.length === 0) return { gift: null, day, granted: [], refused: [] };
  const gift = await storedGift(ctx, account.id, { product_id: card.product_id, amount_cents: toCents(card.amount) });
  const { velocity_limits_enabled: enforce } = await loadSettings(ctx, account.id, transaction);
  const granted: number[] = [];
  const refused: number[] = [];
  for (const id of rowIds) {
    const refusal = await reserveSpend(ctx, account.id, { cents: gift.amount_cents, day, enforce }, transaction);
    (refusal ? refused : granted).push(id);
  }
  return { gift, day, granted, refused };
}
