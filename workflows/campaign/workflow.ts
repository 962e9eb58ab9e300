// One campaign, `campaign/<accountId>/<id>`: the database decides, this carries out. It reads where the campaign
// stands, sleeps until its time (a wake signal cuts the sleep short: a reschedule, unschedule or cancel), moves it
// to sending, fans out in a child workflow, and settles how it ended.
import { condition, executeChild, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import { showStatus } from '../shared/status.ts';
import { CAMPAIGN_FAN_OUT_WORKFLOW, campaignFanOutWorkflowId, wakeSignal, type CampaignWorkflowInput, type CampaignWorkflowResult } from './contract.ts';
import type { campaignFanOutWorkflow } from './fan-out.ts';

const { campaignPlan, beginCampaign, finishCampaign } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function campaignWorkflow(input: CampaignWorkflowInput): Promise<CampaignWorkflowResult> {
  let woken = false;
  setHandler(wakeSignal, () => {
    woken = true;
  });
  for (;;) {
    woken = false;
    const plan = await campaignPlan({ campaignId: input.campaignId });
    showStatus(plan.status);
    if (plan.status === 'scheduled' && plan.waitMs !== null) {
      if (plan.waitMs > 0) {
        await condition(() => woken, plan.waitMs);
        continue;
      }
      await beginCampaign({ campaignId: input.campaignId });
      continue;
    }
    if (plan.status !== 'sending') return { status: plan.status, counts: null };
    const counts = await executeChild<typeof campaignFanOutWorkflow>(CAMPAIGN_FAN_OUT_WORKFLOW, {
      workflowId: campaignFanOutWorkflowId(input.accountId, input.campaignId),
      args: [{ campaignId: input.campaignId, afterRecipientId: 0, bulk: input.bulk, counts: null }],
    });
    const status = await finishCampaign({ campaignId: input.campaignId });
    showStatus(status);
    return { status, counts };
  }
}
