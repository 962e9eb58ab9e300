// The campaign workflows' activities: thin wrappers over services/campaigns/{run,batch}.ts. The batch runs on the
// bulk task queue and heartbeats once per micro-batch.
import { Context } from '@temporalio/activity';
import type { ServiceContext } from '../services/context.ts';
import { sendCampaignBatch, type BatchCounts, type BatchInput } from '../services/campaigns/batch.ts';
import { beginCampaign, campaignBatchStarts, campaignPlan, finishCampaign, type CampaignPlan } from '../services/campaigns/run.ts';
import { BATCH_ATTEMPTS } from '../workflows/campaign/policy.ts';

export function createCampaignActivities(deps: ServiceContext) {
  return {
    campaignPlan: (input: { campaignId: number }): Promise<CampaignPlan> => campaignPlan(deps, input.campaignId),
    beginCampaign: (input: { campaignId: number }): Promise<void> => beginCampaign(deps, input.campaignId),
    finishCampaign: (input: { campaignId: number }): Promise<string> => finishCampaign(deps, input.campaignId),
    campaignBatchStarts: (input: { campaignId: number; afterRecipientId: number; limit: number; count: number }) => campaignBatchStarts(deps, input),
    async sendCampaignBatch(input: BatchInput): Promise<BatchCounts> {
      const context = Context.current();
      return sendCampaignBatch(deps, input, { lastTry: context.info.attempt >= BATCH_ATTEMPTS, heartbeat: () => context.heartbeat() });
    },
  };
}
