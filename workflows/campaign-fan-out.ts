// A sending campaign's fan-out: batches of recipients (by id ranges) on the bulk task queue, at most `concurrency`
// at once; histories hold ids and counts only, and the workflow continues as new when Temporal suggests it.
import { continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { BatchCounts } from '../services/campaigns/batch.ts';
import { BATCH_ATTEMPTS } from './campaign/policy.ts';

export interface BulkSettings {
  taskQueue: string;
  concurrency: number;
  batchSize: number;
  /** How long a batch may go unheard (a dead worker) before it is tried again. */
  heartbeatSeconds: number;
}

export interface FanOutInput {
  campaignId: number;
  afterRecipientId: number;
  bulk: BulkSettings;
  /** What earlier runs (before continue-as-new) counted. */
  counts: BatchCounts | null;
}

const { campaignBatchStarts } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

const add = (a: BatchCounts, b: BatchCounts): BatchCounts => ({
  sent: a.sent + b.sent,
  failed: a.failed + b.failed,
  unknown: a.unknown + b.unknown,
  skipped: a.skipped + b.skipped,
  canceled: a.canceled + b.canceled,
});

export async function campaignFanOutWorkflow(input: FanOutInput): Promise<BatchCounts> {
  const { sendCampaignBatch } = proxyActivities<Activities>({
    taskQueue: input.bulk.taskQueue,
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: input.bulk.heartbeatSeconds * 1000,
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: BATCH_ATTEMPTS },
  });
  let counts = input.counts ?? { sent: 0, failed: 0, unknown: 0, skipped: 0, canceled: 0 };
  let after = input.afterRecipientId;
  for (;;) {
    const { starts, end } = await campaignBatchStarts({ campaignId: input.campaignId, afterRecipientId: after, limit: input.bulk.batchSize, count: input.bulk.concurrency * 4 });
    if (starts.length === 0) return counts;
    // A pool of `concurrency` lanes over the starts, in order.
    let next = 0;
    const lane = async () => {
      while (next < starts.length) {
        const start = starts[next++]!;
        counts = add(counts, await sendCampaignBatch({ campaignId: input.campaignId, afterRecipientId: start, limit: input.bulk.batchSize }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(input.bulk.concurrency, starts.length) }, lane));
    after = end;
    if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof campaignFanOutWorkflow>({ ...input, afterRecipientId: after, counts });
  }
}
