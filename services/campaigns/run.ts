// What the campaign workflow asks of the database: where the campaign stands, the move from scheduled to sending
// when its time has come, where its batches start, and how it ended. Each is one read or one conditional write.
import { fn, col, Op } from 'sequelize';
import type { CampaignStatus } from '../../models/Campaign.ts';
import type { ServiceContext } from '../context.ts';
import { releaseReservation } from '../rewards/reservations.ts';
import { outcomeTransaction } from '../sends/delivery/outcome-events.ts';
import { announceMarkedOf } from '../sends/delivery/outcome-marks.ts';
import { recordCampaignCompleted } from './completed-event.ts';
import { wakeCampaignNow } from './moves.ts';

export interface CampaignPlan {
  status: CampaignStatus | 'gone';
  /** scheduled: how long until it goes out, measured by the activity (0 when due), so the workflow reads no clock. */
  waitMs: number | null;
  /** scheduled: the instant it goes out (the workflow's wakeable sleep asks the service clock how far that is). */
  untilMs?: number | null;
  /** Whether it goes out in waves (campaign_waves), and the next wave not done yet. */
  inWaves?: boolean;
  nextWave?: { id: number; sendAtMs: number } | null;
}

export async function campaignPlan(ctx: ServiceContext, campaignId: number): Promise<CampaignPlan> {
  const campaign = await ctx.models.Campaign.findByPk(campaignId);
  if (!campaign) return { status: 'gone', waitMs: null, untilMs: null, inWaves: false, nextWave: null };
  const now = await ctx.clock.read();
  const waitMs = campaign.scheduled_at ? Math.max(0, campaign.scheduled_at.getTime() - now.getTime()) : null;
  const waves = await ctx.models.CampaignWave.findAll({ attributes: ['id', 'send_at', 'completed_at'], where: { campaign_id: campaignId }, order: [['send_at', 'ASC'], ['id', 'ASC']], raw: true });
  const next = waves.find((w) => w.completed_at === null);
  return {
    status: campaign.status,
    waitMs,
    untilMs: campaign.scheduled_at?.getTime() ?? null,
    inWaves: waves.length > 0,
    nextWave: next ? { id: next.id, sendAtMs: new Date(next.send_at).getTime() } : null,
  };
}

/** A wave's fan-out has ended: the campaign goes on to its next wave. */
export async function finishCampaignWave(ctx: ServiceContext, campaignId: number, waveId: number): Promise<void> {
  await ctx.models.CampaignWave.update({ completed_at: await ctx.clock.read() }, { where: { id: waveId, campaign_id: campaignId, completed_at: null } });
}

/** scheduled → sending once its time has come (a reschedule or unschedule that got there first wins). */
export async function beginCampaign(ctx: ServiceContext, campaignId: number): Promise<void> {
  const now = await ctx.clock.read();
  await ctx.models.Campaign.update(
    { status: 'sending', started_at: now },
    { where: { id: campaignId, status: 'scheduled', scheduled_at: { [Op.lte]: now } } },
  );
}

/**
 * Where the next `count` batches of `limit` recipients start (each covers the ids after its start), and the last
 * id they cover: ids only, never recipient data.
 */
export async function campaignBatchStarts(
  ctx: ServiceContext,
  input: { campaignId: number; waveId?: number; afterRecipientId: number; limit: number; count: number },
): Promise<{ starts: number[]; end: number }> {
  const ids = await ctx.models.CampaignRecipient.findAll({
    attributes: ['id'],
    where: { campaign_id: input.campaignId, ...(input.waveId === undefined ? {} : { wave_id: input.waveId }), id: { [Op.gt]: input.afterRecipientId } },
    order: [['id', 'ASC']],
    limit: input.limit * input.count,
    raw: true,
  });
  const starts: number[] = [];
  for (let i = 0; i < ids.length; i += input.limit) starts.push(i === 0 ? input.afterRecipientId : ids[i - 1]!.id);
  return { starts, end: ids.length ? ids[ids.length - 1]!.id : input.afterRecipientId };
}

/** sending → sent (something went out or may have) or failed (nothing did), once nothing is pending. */
export async function finishCampaign(ctx: ServiceContext, campaignId: number): Promise<CampaignStatus | 'gone'> {
  const { models } = ctx;
  const rows = (await models.CampaignRecipient.findAll({
    attributes: ['status', [fn('COUNT', col('id')), 'n']],
    where: { campaign_id: campaignId },
    group: ['status'],
    raw: true,
  })) as unknown as Array<{ status: string; n: number | string }>;
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  if (count('pending') === 0) {
    // Recipients' outcome events a batch left marked go out before the campaign's own (outcome-marks.ts).
    await announceMarkedOf(ctx, 'campaign', campaignId);
    const campaign = await models.Campaign.findByPk(campaignId);
    if (campaign) {
      // The end and its campaign_completed in one transaction: only the update that ended it emits.
      await outcomeTransaction(ctx, campaign.account_id, ['campaign_completed'], async (transaction, emits) => {
        const [ended] = await models.Campaign.update(
          { status: count('sent') + count('unknown') > 0 ? 'sent' : 'failed', completed_at: ctx.now() },
          { where: { id: campaignId, status: 'sending' }, transaction },
        );
        if (ended && emits) await recordCampaignCompleted(ctx, await campaign.reload({ transaction }), transaction);
      });
      // The gift spend no recipient's order took (skipped recipients) goes back.
      await releaseReservation(ctx, 'campaigns', campaignId, campaign.account_id);
    }
  }
  return (await campaignPlan(ctx, campaignId)).status;
}

const WAKE_BATCH = 50;
// A move wakes its campaign itself right after its commit; the pass leaves it that long before doing it instead.
const WAKE_GRACE_MS = 10_000;

/** Background pass: wakes campaigns that should have a workflow running but whose wake never arrived. */
export async function wakeUnstartedCampaigns(ctx: ServiceContext): Promise<boolean> {
  if (!ctx.workflows) return false;
  const campaigns = await ctx.models.Campaign.findAll({
    where: { workflow_started: false, status: ['scheduled', 'sending'], updated_at: { [Op.lt]: new Date(ctx.now().getTime() - WAKE_GRACE_MS) } },
    order: [['id', 'ASC']],
    limit: WAKE_BATCH,
  });
  for (const campaign of campaigns) await wakeCampaignNow(ctx, ctx.workflows, campaign);
  return campaigns.length === WAKE_BATCH;
}
