// Gifts of the bulk sender's recipients (a campaign's, an automation's): a campaign checks its product, amount and
// manual stock for every recipient and reserves the whole campaign's spend when it leaves the draft; each batch's
// prepare transaction then makes its recipients' orders (codes given there), and a recipient whose gift could not
// be had fails without an email.
import type { Transaction } from 'sequelize';
import type { Account } from '../../models/Account.ts';
import type { Campaign } from '../../models/Campaign.ts';
import type { GiftScope } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';
import { resolveGift, type ResolvedGift } from './catalog.ts';
import { createOrders } from './orders.ts';
import { releaseReservation, type Holder } from './reservations.ts';
import { checkStock, reserveGiftSpend } from './send-gift.ts';
import { failRecipients } from './settle.ts';
import { loadSettings } from './settings.ts';

export interface StoredGiftCard {
  product_id: string;
  amount: number;
}

export const parseGiftCard = (text: string | null): StoredGiftCard | null => (text ? (JSON.parse(text) as StoredGiftCard) : null);

/** A gift campaign leaving the draft (schedule, send): checks and reserves its gift for `count` recipients. */
export async function reserveCampaignGift(ctx: ServiceContext, account: Account, campaign: Campaign, count: number, transaction: Transaction): Promise<void> {
  await releaseReservation(ctx, 'campaigns', campaign.id, account.id, transaction);
  const card = campaign.gift_card_enabled ? parseGiftCard(campaign.gift_card) : null;
  if (!card) return;
  const settings = await loadSettings(ctx, account.id, transaction);
  const gift = await resolveGift(ctx, account, card, settings);
  await checkStock(ctx, account.id, gift, count, transaction);
  const cents = gift.amount_cents * count;
  const day = await reserveGiftSpend(ctx, account.id, { gift, settings }, cents, transaction);
  await ctx.models.Campaign.update({ gift_reserved_cents: cents, gift_spend_day: day }, { where: { id: campaign.id }, transaction });
}

export interface BulkGiftEntry {
  orderKey: string;
  sendPk: number;
  memberId: number | null;
  name: string;
  email: string;
}

/** In the batch's prepare transaction, after its sends exist: one order per recipient; no gift, no email. */
export async function orderBulkGifts(
  ctx: ServiceContext,
  input: { accountId: number; scope: GiftScope; campaignId?: number; automationId?: number; gift: ResolvedGift; spendDay: string; holder: { table: Holder; id: number } | null },
  entries: readonly BulkGiftEntry[],
  transaction: Transaction,
): Promise<void> {
  if (entries.length === 0) return;
  const recipientOf = new Map(
    (await ctx.models.SendRecipient.findAll({ attributes: ['id', 'send_id'], where: { send_id: entries.map((e) => e.sendPk) }, raw: true, transaction })).map((r) => [r.send_id, r.id]),
  );
  const settings = await loadSettings(ctx, input.accountId, transaction);
  const orders = await createOrders(
    ctx,
    { ...input, claimExpiryDays: settings.claim_expiry_days },
    entries.map((e) => ({ orderKey: e.orderKey, sendPk: e.sendPk, sendRecipientId: recipientOf.get(e.sendPk)!, memberId: e.memberId, recipientName: e.name, recipientEmail: e.email })),
    transaction,
  );
  const failed = orders.filter((o) => o.fulfillment_status === 'failed' && o.send_recipient_id !== null);
  for (const reason of new Set(failed.map((o) => o.failure_reason ?? 'failed'))) {
    const ids = failed.filter((o) => (o.failure_reason ?? 'failed') === reason).map((o) => o.send_recipient_id!);
    await failRecipients(ctx, ids, reason, transaction);
  }
}
