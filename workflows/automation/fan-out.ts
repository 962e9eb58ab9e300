// The batches of one automation firing date D (`automation-firing/<accountId>/<id>/<D>[/<zone>]`), or of one wave of
// it (rows of one zone whose send_at has come): id ranges of its pending
// rows on the bulk task queue, at most `concurrency` at once, as a campaign's fan-out; histories hold ids and
// counts only, and the workflow continues as new when Temporal suggests it.
import { continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import { addCounts, batchActivityOptions, inLanes } from '../shared/bulk-fan-out.ts';
import type { AutomationBatchCounts, AutomationFanOutInput } from './contract.ts';

const { automationBatchBounds } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function automationFanOutWorkflow(input: AutomationFanOutInput): Promise<AutomationBatchCounts> {
  const { sendAutomationBatch } = proxyActivities<Activities>(batchActivityOptions(input.bulk));
  const { accountId, automationId, firingDate } = input;
  // A wave of a local-time firing narrows every step to its rows; a fan-out from before waves has none.
  const wave = input.wave ? { wave: input.wave } : {};
  let counts = input.counts ?? { sent: 0, failed: 0, unknown: 0, skipped: 0 };
  let after = input.afterId;
  for (;;) {
    const bounds = await automationBatchBounds({ automationId, firingDate, afterId: after, limit: input.bulk.batchSize, count: input.bulk.concurrency * 4, ...wave });
    if (bounds.length < 2) return counts;
    await inLanes(bounds.length - 1, input.bulk.concurrency, async (i) => {
      counts = addCounts(counts, await sendAutomationBatch({ accountId, automationId, firingDate, afterId: bounds[i]!, throughId: bounds[i + 1]!, ...wave }));
    });
    after = bounds[bounds.length - 1]!;
    if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof automationFanOutWorkflow>({ ...input, afterId: after, counts });
  }
}
