// The campaign workflows' activities: thin wrappers over services/campaigns/{run,batch}.ts. The batch runs on the
// bulk task queue and heartbeats once per micro-batch.
import type { ServiceContext } from '../services/context.ts';
import { sendCampaignBatch, type BatchInput } from '../services/campaigns/batch.ts';
import { beginCampaign, campaignBatchStarts, campaignPlan, finishCampaign, finishCampaignWave, type CampaignPlan } from '../services/campaigns/run.ts';
import type { BatchCounts } from '../workflows/campaign/contract.ts';
import { BATCH_ATTEMPTS } from '../workflows/shared/bulk.ts';
import { currentAttempt } from './attempt.ts';

export function createCampaignActivities(ctx: ServiceContext) {
  return {
    campaignPlan: (input: { campaignId: number }): Promise<CampaignPlan> => campaignPlan(ctx, input.campaignId),
    beginCampaign: (input: { campaignId: number }): Promise<void> => beginCampaign(ctx, input.campaignId),
    finishCampaign: (input: { campaignId: number }): Promise<string> => finishCampaign(ctx, input.campaignId),
    finishCampaignWave: (input: { campaignId: number; waveId: number }): Promise<void> => finishCampaignWave(ctx, input.campaignId, input.waveId),
    campaignBatchStarts: (input: { campaignId: number; waveId?: number; afterRecipientId: number; limit: number; count: number }) => campaignBatchStarts(ctx, input),
    sendCampaignBatch: (input: BatchInput): Promise<BatchCounts> => sendCampaignBatch(ctx, input, currentAttempt(BATCH_ATTEMPTS)),
  };
}
