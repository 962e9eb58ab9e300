// Campaign state moves: schedule, send, unschedule, cancel. The database decides (one transaction under the
// account's lock: checks, quota, the conditional state change); Temporal carries out (a wake after the commit,
// and a background pass wakes any campaign whose wake was lost).
import { Op, type Transaction } from 'sequelize';
import { campaignIncomplete, invalidCampaignState, sendingSuspended, wouldExceedLimit } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { Campaign, CampaignStatus } from '../../models/Campaign.ts';
import { wakeCampaignWorkflow } from '../../workflows/campaign/lifecycle.ts';
import type { WorkflowTarget } from '../../workflows/shared/start.ts';
import { accountTransaction } from '../account-lock.ts';
import { spendToken } from '../confirmation-tokens.ts';
import type { ServiceContext } from '../context.ts';
import { isSuspended } from '../sends/accept/rules.ts';
import { billingMonth, quotaRemaining, releaseQuota, reserveQuota } from '../sends/accept/quota.ts';
import { findCampaign } from './campaigns.ts';
import { recordCampaignCompleted } from './completed-event.ts';
import { checkScheduleWindow, type WallClock } from './schedule-time.ts';
import type { WaveTime } from './wave-plan.ts';
import { clearCampaignWaves, planCampaignWaves, releaseWaveQuota, writeCampaignWaves } from './waves.ts';
import { cancelUnclaimedSends } from '../sends/erasure/redact.ts';
import { reserveCampaignGift } from '../rewards/bulk-gift.ts';
import { releaseReservation } from '../rewards/reservations.ts';
import { settleGiftOrders } from '../rewards/settle.ts';

type Move = 'schedule' | 'send' | 'unschedule' | 'cancel';
const CANCEL_PAGE = 1000;
const FROM: Record<Move, CampaignStatus[]> = {
  schedule: ['draft', 'scheduled'],
  send: ['draft', 'scheduled'],
  unschedule: ['scheduled'],
  cancel: ['scheduled', 'sending'],
};

function assertMove(campaign: Campaign, move: Move): void {
  if (!FROM[move].includes(campaign.status)) {
    throw invalidCampaignState(`Campaign ${campaign.id} is ${campaign.status}; ${move} needs ${FROM[move].join(' or ')}`);
  }
}

/** ≥ 1 eCard, ≥ 1 recipient, a from_email (and a gift when gifts are on), each missing one named. */
async function assertComplete(ctx: Pick<ServiceContext, 'models'>, campaign: Campaign, transaction: Transaction): Promise<number> {
  const { models } = ctx;
  const [ecards, recipients] = await Promise.all([
    models.Ecard.count({ where: { widget_id: campaign.widget_id }, transaction }),
    models.CampaignRecipient.count({ where: { campaign_id: campaign.id, status: 'pending' }, transaction }),
  ]);
  const missing = [
    ...(ecards === 0 ? ['at least one eCard (saveCampaignEcards)'] : []),
    ...(recipients === 0 ? ['at least one recipient (saveRecipients)'] : []),
    ...(campaign.from_email ? [] : ['from_email']),
    ...(campaign.gift_card_enabled && !campaign.gift_card ? ['gift_card (gift_card_enabled is on)'] : []),
  ];
  if (missing.length) {
    const messages = missing.map((m) => `Campaign ${campaign.id} needs ${m}`);
    throw campaignIncomplete(messages[0]!, { messages, extra: { missing } });
  }
  return recipients;
}

/** Gives back an earlier reservation: the campaign's one month, or its waves'. */
async function releaseEarlier(ctx: Pick<ServiceContext, 'models'>, account: Account, campaign: Campaign, transaction: Transaction): Promise<void> {
  if (campaign.quota_month) await releaseQuota(ctx, account.id, campaign.quota_month, campaign.quota_count, transaction);
  await clearCampaignWaves(ctx, campaign, transaction);
  await campaign.update({ quota_month: null, quota_count: 0 }, { transaction });
}

/**
 * Reserves the campaign's emails: in waves when it goes out in each recipient's zone or quiet hours delay some
 * recipients (each wave against its own month), else against the month of its send time. Returns the waves' first
 * instant (null: no waves). An earlier reservation is given back first.
 */
async function reserveFor(ctx: ServiceContext, account: Account, campaign: Campaign, count: number, time: WaveTime, now: Date, transaction: Transaction): Promise<Date | null> {
  await releaseEarlier(ctx, account, campaign, transaction);
  const waves = await planCampaignWaves(ctx, account, campaign, time, now, transaction);
  if (waves) {
    if ('wall' in time) checkScheduleWindow(new Date(Math.max(...waves.map((w) => w.due.getTime()))), now, ctx.config.sendNowWindowSeconds);
    await writeCampaignWaves(ctx, account, campaign, waves, transaction);
    return waves[0]!.sendAt;
  }
  await reserveMonth(ctx, account, campaign, count, 'instant' in time ? time.instant : now, transaction);
  return null;
}

async function reserveMonth(ctx: ServiceContext, account: Account, campaign: Campaign, count: number, at: Date, transaction: Transaction): Promise<void> {
  if (account.mode === 'sandbox') return;
  const month = billingMonth(at);
  const limit = ctx.config.emailsPerMonth[account.plan];
  if (!(await reserveQuota(ctx, account.id, month, count, limit, transaction))) {
    const remaining = await quotaRemaining(ctx, account.id, month, limit, transaction);
    throw wouldExceedLimit(`The ${account.plan} plan has ${remaining} emails left for ${month}; this campaign needs ${count}`, {
      extra: { needed: count, remaining },
    });
  }
  await campaign.update({ quota_month: month, quota_count: count }, { transaction });
}

async function startChecks(ctx: ServiceContext, account: Account, campaign: Campaign, token: string | undefined, transaction: Transaction): Promise<number> {
  const count = await assertComplete(ctx, campaign, transaction);
  if (await isSuspended(ctx, account.id, transaction)) throw sendingSuspended('Sending is suspended for this account');
  // A gift campaign's token is spent when it leaves the draft (reading: a reschedule needs none).
  if (campaign.gift_card_enabled && campaign.status === 'draft') {
    await spendToken(
      ctx,
      { accountId: account.id, purpose: 'gc_campaign_send', resourceId: String(campaign.id), token, now: ctx.now(), message: 'A gift-card campaign needs a gc_confirmation_token issued for it' },
      transaction,
    );
  }
  return count;
}

/** Wakes (or starts) the campaign's workflow and records that the wake arrived. */
export async function wakeCampaignNow(ctx: ServiceContext, target: WorkflowTarget, campaign: Campaign): Promise<void> {
  await wakeCampaignWorkflow(target, campaignWorkflowInput(ctx, campaign), campaign.status);
  await ctx.models.Campaign.update({ workflow_started: true }, { where: { id: campaign.id, status: campaign.status } });
}

/** Wakes the campaign's workflow after the commit; a failure is left to the background pass. */
export async function wakeCampaign(ctx: ServiceContext, campaign: Campaign): Promise<void> {
  if (!ctx.workflows) return;
  try {
    await wakeCampaignNow(ctx, ctx.workflows, campaign);
  } catch (err) {
    ctx.logger.warn({ err, campaignId: campaign.id }, 'waking the campaign workflow failed; the background pass will');
    ctx.nudge();
  }
}

export function campaignWorkflowInput(ctx: ServiceContext, campaign: Pick<Campaign, 'id' | 'account_id'>) {
  return {
    accountId: campaign.account_id,
    campaignId: campaign.id,
    bulk: { taskQueue: ctx.config.temporal.bulkTaskQueue, ...ctx.config.bulk, heartbeatSeconds: ctx.config.heartbeatSeconds },
  };
}

async function move(
  ctx: ServiceContext,
  accountId: number,
  campaignId: number,
  name: Move,
  work: (account: Account, campaign: Campaign, transaction: Transaction) => Promise<Partial<Campaign>>,
): Promise<Campaign> {
  const campaign = await accountTransaction(ctx, accountId, async (transaction, account) => {
    const found = await findCampaign(ctx, accountId, campaignId, transaction);
    assertMove(found, name);
    const changes = { ...(await work(account, found, transaction)), workflow_started: false, updated_at: ctx.now() };
    // Conditional: the workflow moves scheduled → sending without the account's lock.
    const [changed] = await ctx.models.Campaign.update(changes, { where: { id: found.id, status: found.status }, transaction });
    if (!changed) throw invalidCampaignState(`Campaign ${found.id} changed state meanwhile; try again`);
    const moved = await found.reload({ transaction });
    // A cancel ends the campaign: its campaign_completed goes with this write.
    if (moved.status === 'canceled') await recordCampaignCompleted(ctx, moved, transaction);
    return moved;
  });
  await wakeCampaign(ctx, campaign);
  return campaign;
}

/** When a schedule is for: one instant in a named zone, or a wall-clock time in each recipient's own zone. */
export type ScheduleInput =
  | { at: Date; timeZone: string; token: string | undefined }
  | { wall: WallClock; wallText: string; timeZone: 'recipient'; token: string | undefined };

export function scheduleCampaign(ctx: ServiceContext, accountId: number, campaignId: number, input: ScheduleInput) {
  return move(ctx, accountId, campaignId, 'schedule', async (account, campaign, transaction) => {
    // Fresh: the test clock may have moved since this process last read it.
    const now = await ctx.clock.read();
    if ('at' in input) checkScheduleWindow(input.at, now, ctx.config.sendNowWindowSeconds);
    const count = await startChecks(ctx, account, campaign, input.token, transaction);
    const time: WaveTime = 'at' in input ? { instant: input.at } : { wall: input.wall };
    const first = await reserveFor(ctx, account, campaign, count, time, now, transaction);
    await reserveCampaignGift(ctx, account, campaign, count, transaction);
    // In each recipient's zone it is scheduled from its first wave (which may be now: a zone whose moment passed).
    const at = 'at' in input ? input.at : first!;
    return { status: 'scheduled', scheduled_at: at, scheduled_timezone: input.timeZone, scheduled_wall: 'wallText' in input ? input.wallText : null };
  });
}

export function sendCampaign(ctx: ServiceContext, accountId: number, campaignId: number, token: string | undefined) {
  return move(ctx, accountId, campaignId, 'send', async (account, campaign, transaction) => {
    const now = await ctx.clock.read();
    const count = await startChecks(ctx, account, campaign, token, transaction);
    await reserveFor(ctx, account, campaign, count, { instant: now }, now, transaction);
    await reserveCampaignGift(ctx, account, campaign, count, transaction);
    return { status: 'sending', started_at: now };
  });
}

export function unscheduleCampaign(ctx: ServiceContext, accountId: number, campaignId: number) {
  return move(ctx, accountId, campaignId, 'unschedule', async (account, campaign, transaction) => {
    await releaseEarlier(ctx, account, campaign, transaction);
    await releaseReservation(ctx, 'campaigns', campaign.id, account.id, transaction);
    return { status: 'draft', scheduled_at: null, scheduled_timezone: null, scheduled_wall: null, quota_month: null, quota_count: 0 };
  });
}

/** Unclaimed recipients end `canceled` (their quota and gifts back); claimed ones finish. */
export async function cancelCampaign(ctx: ServiceContext, accountId: number, campaignId: number) {
  const campaign = await move(ctx, accountId, campaignId, 'cancel', async (_account, campaign, transaction) => {
    const released = await cancelUnclaimed(ctx, campaign, 'campaign canceled', transaction);
    await releaseReservation(ctx, 'campaigns', campaign.id, accountId, transaction);
    return { status: 'canceled', completed_at: ctx.now(), quota_count: Math.max(0, campaign.quota_count - released) };
  });
  // Gifts of prepared sends that will not go out now: refunded, their codes back (after the commit: a provider is asked).
  if (campaign.gift_card_enabled) await settleCampaignGifts(ctx, campaign.id);
  return campaign;
}

/** Every gift of the campaign whose recipient will not get it ends (failed or refunded). */
export async function settleCampaignGifts(ctx: ServiceContext, campaignId: number): Promise<void> {
  const sendPks = await ctx.models.GiftOrder.findAll({ attributes: ['send_id'], where: { campaign_id: campaignId, fulfillment_status: ['pending', 'fulfilled'] }, raw: true });
  await settleGiftOrders(ctx, sendPks.flatMap((o) => (o.send_id ? [o.send_id] : [])));
}

/**
 * Marks the campaign's unclaimed recipients (and their prepared sends) canceled; returns the quota released.
 * Races a batch's claim on the same send_recipients rows: both are conditional updates, so each row goes one way.
 */
export async function cancelUnclaimed(ctx: Pick<ServiceContext, 'models'>, campaign: Campaign, reason: string, transaction: Transaction): Promise<number> {
  const { models } = ctx;
  let canceled = 0;
  // A campaign in waves reserved per wave: each wave's canceled recipients go back to that wave's month.
  const perWave = new Map<number, number>();
  for (let after = 0; ; ) {
    const page = await models.CampaignRecipient.findAll({
      attributes: ['id', 'send_id', 'wave_id'],
      where: { campaign_id: campaign.id, status: 'pending', id: { [Op.gt]: after } },
      order: [['id', 'ASC']],
      limit: CANCEL_PAGE,
      raw: true,
      transaction,
    });
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    const sendIds = page.flatMap((r) => (r.send_id ? [r.send_id] : []));
    const stopped = await cancelUnclaimedSends(ctx, sendIds, reason, transaction);
    const stopping = page.filter((r) => r.send_id === null || stopped.has(r.send_id));
    for (const waveId of new Set(stopping.flatMap((r) => (r.wave_id ? [r.wave_id] : [])))) {
      const ids = stopping.filter((r) => r.wave_id === waveId).map((r) => r.id);
      const [n] = await models.CampaignRecipient.update({ status: 'canceled', reason }, { where: { id: ids, status: 'pending' }, transaction });
      perWave.set(waveId, (perWave.get(waveId) ?? 0) + n);
    }
    const ids = stopping.filter((r) => !r.wave_id).map((r) => r.id);
    if (ids.length) canceled += (await models.CampaignRecipient.update({ status: 'canceled', reason }, { where: { id: ids, status: 'pending' }, transaction }))[0];
  }
  for (const [waveId, n] of perWave) await releaseWaveQuota(ctx, campaign.account_id, waveId, n, transaction);
  const released = Math.min(canceled, campaign.quota_count);
  if (campaign.quota_month && released) await releaseQuota(ctx, campaign.account_id, campaign.quota_month, released, transaction);
  return released;
}
