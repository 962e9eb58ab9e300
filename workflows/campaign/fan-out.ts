// A sending campaign's fan-out (or one wave's): batches of recipients (by id ranges) on the bulk task queue, at most
// `concurrency` at once; histories hold ids and counts only, and the workflow continues as new when Temporal
// suggests it.
import { continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import { addCounts, batchActivityOptions, inLanes } from '../shared/bulk-fan-out.ts';
import type { BatchCounts, FanOutInput } from './contract.ts';

const { campaignBatchStarts } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function campaignFanOutWorkflow(input: FanOutInput): Promise<BatchCounts> {
  const { sendCampaignBatch } = proxyActivities<Activities>(batchActivityOptions(input.bulk));
  // A campaign at one instant passes no wave, so its activities' inputs are what they always were.
  const wave = input.waveId === undefined ? {} : { waveId: input.waveId };
  let counts = input.counts ?? { sent: 0, failed: 0, unknown: 0, skipped: 0, canceled: 0 };
  let after = input.afterRecipientId;
  for (;;) {
    const { starts, end } = await campaignBatchStarts({ campaignId: input.campaignId, ...wave, afterRecipientId: after, limit: input.bulk.batchSize, count: input.bulk.concurrency * 4 });
    if (starts.length === 0) return counts;
    await inLanes(starts.length, input.bulk.concurrency, async (i) => {
      counts = addCounts(counts, await sendCampaignBatch({ campaignId: input.campaignId, ...wave, afterRecipientId: starts[i]!, limit: input.bulk.batchSize }));
    });
    after = end;
    if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof campaignFanOutWorkflow>({ ...input, afterRecipientId: after, counts });
  }
}
