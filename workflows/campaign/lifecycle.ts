// Waking campaign workflows: the database decided (a committed state change); the wake tells the campaign's
// workflow to look again, starting it when it is not running.
import { withStartDeadline, type WorkflowTarget } from '../shared/start.ts';
import { cardAttributes } from '../shared/search-attributes.ts';
import { CAMPAIGN_WORKFLOW, campaignWorkflowId, wakeSignal, type CampaignWorkflow, type CampaignWorkflowInput } from './contract.ts';

export async function wakeCampaignWorkflow(target: WorkflowTarget, input: CampaignWorkflowInput, status: string): Promise<void> {
  await withStartDeadline(target, () =>
    target.client.workflow.signalWithStart<CampaignWorkflow, []>(CAMPAIGN_WORKFLOW, {
      taskQueue: target.taskQueue,
      workflowId: campaignWorkflowId(input.accountId, input.campaignId),
      args: [input],
      signal: wakeSignal,
      signalArgs: [],
      typedSearchAttributes: cardAttributes(input.accountId, 'campaign', status),
    }),
  );
}
