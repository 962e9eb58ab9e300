// One batch of a sending campaign (the bulk activity's work): its recipients (id > after, up to `limit`) are
// prepared in one transaction under the account's lock (skips, sends, snapshots, events), then delivered by the
// bulk sender, then their states are read back from their sends. Safe to run again at any point.
import { literal, Op } from 'sequelize';
import type { Campaign } from '../../models/Campaign.ts';
import type { CampaignRecipient, CampaignRecipientStatus } from '../../models/CampaignRecipient.ts';
import type { BatchCounts } from '../../workflows/campaign/contract.ts';
import { accountTransaction } from '../account-lock.ts';
import { prepareBulkSends, sendLinks, type BulkRecipient } from '../bulk-send/prepare.ts';
import { deliverPrepared, settleFromSends, suppressedEmails } from '../bulk-send/steps.ts';
import type { ServiceContext } from '../context.ts';
import { releaseQuota } from '../sends/accept/quota.ts';
import { isSuspended } from '../sends/accept/rules.ts';
import { orderBulkGifts, parseGiftCard } from '../rewards/bulk-gift.ts';
import { storedGift } from '../rewards/catalog.ts';
import { toCents } from '../rewards/money.ts';
import { dayOf } from '../rewards/periods.ts';
import { recordCampaignCompleted } from './completed-event.ts';
import { campaignEcards, ecardFor } from './ecards.ts';
import { cancelUnclaimed } from './moves.ts';
import { releaseWaveQuota } from './waves.ts';
import { listUnsubscribeHeaders } from '../sends/delivery/unsubscribe.ts';

export interface BatchInput {
  campaignId: number;
  /** Only this wave's recipients (a campaign in waves). */
  waveId?: number;
  afterRecipientId: number;
  limit: number;
}

/** Recipients given back their quota (skipped, failed), and the campaign's (or their wave's) reservation lowered with it. */
async function giveBack(ctx: Pick<ServiceContext, 'models'>, campaign: Campaign, count: number, waveId: number | undefined): Promise<void> {
  const { models } = ctx;
  if (waveId !== undefined) return void (await releaseWaveQuota(ctx, campaign.account_id, waveId, count));
  if (!campaign.quota_month || count <= 0) return;
  await releaseQuota(ctx, campaign.account_id, campaign.quota_month, count);
  await models.Campaign.update({ quota_count: literal(`quota_count - ${Number(count)}`) }, { where: { id: campaign.id, quota_count: { [Op.gte]: count } } });
}

async function setStatus(ctx: Pick<ServiceContext, 'models'>, ids: number[], status: CampaignRecipientStatus, reason: string | null, extra: Partial<CampaignRecipient> = {}) {
  const { models } = ctx;
  if (ids.length === 0) return 0;
  const [changed] = await models.CampaignRecipient.update({ status, reason, ...extra }, { where: { id: ids, status: 'pending' } });
  return changed;
}

/** In one transaction: skips (inactive members, suppressed addresses), then a send for each other recipient. */
async function prepare(ctx: ServiceContext, campaign: Campaign, page: CampaignRecipient[], waveId: number | undefined): Promise<void> {
  const { models } = ctx;
  let skippedCount = 0;
  await accountTransaction(ctx, campaign.account_id, async (transaction, account) => {
    // Under the lock: a cancel that got here first leaves nothing to prepare.
    const current = await models.Campaign.findByPk(campaign.id, { transaction });
    if (current?.status !== 'sending') return;
    const todo = await models.CampaignRecipient.findAll({ where: { id: page.map((r) => r.id), status: 'pending', send_id: { [Op.is]: null } }, transaction });
    if (todo.length === 0) return;
    const memberIds = todo.flatMap((r) => (r.member_id ? [r.member_id] : []));
    const members = new Map(
      (memberIds.length ? await models.TeamMember.findAll({ where: { account_id: account.id, id: memberIds }, transaction }) : []).map((m) => [m.id, m]),
    );
    const emails = todo.map((r) => (r.member_id ? (members.get(r.member_id)?.email ?? '') : r.email).toLowerCase());
    const blocked = await suppressedEmails(ctx, account.id, emails, transaction);
    const inactive: number[] = [];
    const blockedIds: number[] = [];
    const ready: BulkRecipient[] = [];
    const ecards = await campaignEcards(ctx, campaign);
    const ecardIds = ecards.map((e) => e.id);
    for (const [i, r] of todo.entries()) {
      const member = r.member_id ? members.get(r.member_id) : undefined;
      if (r.source === 'directory' && (!member || member.disabled || !r.email)) inactive.push(r.id);
      else if (blocked.has(emails[i]!)) blockedIds.push(r.id);
      else {
        const first = member ? (member.first_name ?? '') : r.first_name;
        const last = member ? (member.last_name ?? '') : r.last_name;
        const name = member ? [first, last].filter(Boolean).join(' ') : r.name;
        const fields = r.merge_fields ? (JSON.parse(r.merge_fields) as Record<string, string>) : {};
        const mergeTags = { ...fields, first_name: first, last_name: last, ...(member?.job_position ? { job_position: member.job_position } : {}) };
        ready.push({ key: r.id, email: emails[i]!, name, mergeTags, ecard: ecards.find((e) => e.id === ecardFor(campaign.id, r.id, ecardIds))! });
      }
    }
    skippedCount = inactive.length + blockedIds.length;
    if (inactive.length) await models.CampaignRecipient.update({ status: 'skipped', reason: 'inactive' }, { where: { id: inactive }, transaction });
    if (blockedIds.length) await models.CampaignRecipient.update({ status: 'skipped', reason: 'suppressed' }, { where: { id: blockedIds }, transaction });
    const sender = {
      name: campaign.from_name || campaign.from_email!,
      email: campaign.from_email!,
      personalMessage: campaign.personal_message,
      locale: campaign.locale,
      sandbox: account.mode === 'sandbox',
    };
    const sendPks = await prepareBulkSends(ctx, account.id, { kind: 'campaign', id: campaign.id }, sender, ready, transaction);
    if (sendPks.size === 0) return;
    const card = campaign.gift_card_enabled ? parseGiftCard(campaign.gift_card) : null;
    if (card) {
      const gift = await storedGift(ctx, account.id, { product_id: card.product_id, amount_cents: toCents(card.amount) });
      const memberOf = new Map(todo.map((t) => [t.id, t.member_id]));
      await orderBulkGifts(
        ctx,
        { accountId: account.id, scope: 'campaign', campaignId: campaign.id, gift, spendDay: campaign.gift_spend_day ?? dayOf(ctx.now()), holder: { table: 'campaigns', id: campaign.id } },
        ready.map((r) => ({ orderKey: `campaign:${campaign.id}:${r.key}`, sendPk: sendPks.get(r.key)!, memberId: memberOf.get(r.key) ?? null, name: r.name, email: r.email })),
        transaction,
      );
    }
    await models.CampaignRecipient.update(sendLinks(ready, sendPks), { where: { id: ready.map((r) => r.key) }, transaction });
  });
  await giveBack(ctx, campaign, skippedCount, waveId);
}

/** The page's recipients take the state their sends ended in (sent, failed, unknown). */
async function readBack(ctx: ServiceContext, campaign: Campaign, page: CampaignRecipient[], waveId: number | undefined): Promise<void> {
  const { models } = ctx;
  const open = await models.CampaignRecipient.findAll({ attributes: ['id', 'send_id'], where: { id: page.map((r) => r.id), status: 'pending', send_id: { [Op.ne]: null } }, raw: true });
  const sentAt = ctx.now();
  const failed = await settleFromSends(ctx, open.map((r) => ({ id: r.id, send_id: r.send_id! })), (ids, state, reason) =>
    setStatus(ctx, ids, state, reason, state === 'sent' ? { sent_at: sentAt } : {}));
  await giveBack(ctx, campaign, failed, waveId);
}

export async function sendCampaignBatch(ctx: ServiceContext, input: BatchInput, run: { lastTry: boolean; heartbeat: () => void }): Promise<BatchCounts> {
  const { models } = ctx;
  const campaign = await models.Campaign.findByPk(input.campaignId);
  const page = campaign
    ? await models.CampaignRecipient.findAll({
        where: { campaign_id: campaign.id, ...(input.waveId === undefined ? {} : { wave_id: input.waveId }), id: { [Op.gt]: input.afterRecipientId } },
        order: [['id', 'ASC']],
        limit: input.limit,
      })
    : [];
  if (!campaign || page.length === 0) return countsOf([]);
  if (campaign.status === 'sending' && (await isSuspended(ctx, campaign.account_id))) {
    // Suspended sending stops a running campaign: whatever is not claimed yet is canceled.
    await accountTransaction(ctx, campaign.account_id, async (transaction) => {
      const [stopped] = await models.Campaign.update({ status: 'canceled', completed_at: ctx.now() }, { where: { id: campaign.id, status: 'sending' }, transaction });
      if (stopped) {
        await cancelUnclaimed(ctx, campaign, 'sending suspended', transaction);
        await recordCampaignCompleted(ctx, await campaign.reload({ transaction }), transaction);
      }
    });
  }
  if (campaign.status === 'sending') await prepare(ctx, campaign, page, input.waveId);
  run.heartbeat();
  const prepared = await models.CampaignRecipient.findAll({ attributes: ['send_id'], where: { id: page.map((r) => r.id), status: 'pending', send_id: { [Op.ne]: null } }, raw: true });
  const sendPks = prepared.map((r) => r.send_id!);
  try {
    await deliverPrepared(ctx, campaign.account_id, sendPks, { ...run, headersFor: listUnsubscribeHeaders(ctx, campaign.account_id) });
  } finally {
    await readBack(ctx, campaign, page, input.waveId);
  }
  return countsOf(await models.CampaignRecipient.findAll({ attributes: ['status'], where: { id: page.map((r) => r.id) }, raw: true }));
}

function countsOf(rows: Array<Pick<CampaignRecipient, 'status'>>): BatchCounts {
  const counts: BatchCounts = { sent: 0, failed: 0, unknown: 0, skipped: 0, canceled: 0 };
  for (const r of rows) if (r.status in counts) counts[r.status as keyof BatchCounts] += 1;
  return counts;
}
