// One campaign, `campaign/<accountId>/<id>`: the database decides, this carries out. It reads where the campaign
// stands, sleeps until its time (a wake signal cuts the sleep short: a reschedule, unschedule or cancel, the test
// clock moved), moves it to sending, fans out in a child workflow (one per wave for a campaign in waves), and
// settles how it ended.
import { condition, continueAsNew, executeChild, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import { addCounts } from '../shared/bulk-fan-out.ts';
import { wakeableSleeper } from '../shared/sleep-until.ts';
import { showStatus } from '../shared/status.ts';
import {
  CAMPAIGN_FAN_OUT_WORKFLOW,
  CAMPAIGN_WAVES_PATCH,
  campaignFanOutWorkflowId,
  campaignWaveFanOutWorkflowId,
  wakeSignal,
  type BatchCounts,
  type CampaignWorkflowInput,
  type CampaignWorkflowResult,
} from './contract.ts';
import type { campaignFanOutWorkflow } from './fan-out.ts';

const { campaignPlan, beginCampaign, finishCampaign, finishCampaignWave } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function campaignWorkflow(input: CampaignWorkflowInput): Promise<CampaignWorkflowResult> {
  // Runs started before waves existed replay the way they were written.
  if (patched(CAMPAIGN_WAVES_PATCH)) return campaignInWaves(input);
  let woken = false;
  setHandler(wakeSignal, () => {
    woken = true;
  });
  for (;;) {
    woken = false;
    const plan = await campaignPlan({ campaignId: input.campaignId });
    // A run from before waves, meeting a campaign rescheduled in waves since: a new run takes the waves' path.
    // (Histories from before never hold `inWaves`, so they replay past this line.)
    if (plan.inWaves) return continueAsNew<typeof campaignWorkflow>(input);
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

/**
 * Every wait is on the service clock (wakeableSleeper); a wake re-reads the plan. A campaign at one instant fans out
 * once, as before; a campaign in waves sends each wave when it is due, in its own child, and stays `sending` until
 * the last is done.
 */
async function campaignInWaves(input: CampaignWorkflowInput): Promise<CampaignWorkflowResult> {
  const sleep = wakeableSleeper();
  let counts: BatchCounts | null = null;
  for (;;) {
    const plan = await campaignPlan({ campaignId: input.campaignId });
    showStatus(plan.status);
    if (plan.status === 'scheduled' && typeof plan.untilMs === 'number') {
      if ((await sleep(plan.untilMs, true)) === 'woken') continue;
      await beginCampaign({ campaignId: input.campaignId });
      continue;
    }
    if (plan.status !== 'sending') return { status: plan.status, counts };
    const wave = plan.nextWave;
    if (wave) {
      if ((await sleep(wave.sendAtMs, true)) === 'woken') continue;
      const done = await executeChild<typeof campaignFanOutWorkflow>(CAMPAIGN_FAN_OUT_WORKFLOW, {
        workflowId: campaignWaveFanOutWorkflowId(input.accountId, input.campaignId, wave.id),
        args: [{ campaignId: input.campaignId, waveId: wave.id, afterRecipientId: 0, bulk: input.bulk, counts: null }],
      });
      counts = counts ? addCounts(counts, done) : done;
      await finishCampaignWave({ campaignId: input.campaignId, waveId: wave.id });
      continue;
    }
    if (!plan.inWaves) {
      counts = await executeChild<typeof campaignFanOutWorkflow>(CAMPAIGN_FAN_OUT_WORKFLOW, {
        workflowId: campaignFanOutWorkflowId(input.accountId, input.campaignId),
        args: [{ campaignId: input.campaignId, afterRecipientId: 0, bulk: input.bulk, counts: null }],
      });
    }
    const status = await finishCampaign({ campaignId: input.campaignId });
    showStatus(status);
    return { status, counts };
  }
}
