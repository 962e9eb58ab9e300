// Starting webhook delivery workflows: business ids, started once.
import { startOnce, type WorkflowTarget } from '../shared/start.ts';
import { WEBHOOK_DELIVERY_WORKFLOW, type WebhookDeliveryInput, type WebhookDeliveryWorkflow } from './contract.ts';

/** Starts the workflow once: a start that finds its id taken (a retry, another drainer) is a success. */
export async function startDeliveryWorkflow(target: WorkflowTarget, workflowId: string, accountId: number, input: WebhookDeliveryInput): Promise<void> {
  await startOnce<WebhookDeliveryWorkflow>(target, { workflowType: WEBHOOK_DELIVERY_WORKFLOW, workflowId, args: [input], accountId, kind: 'webhook', status: 'Pending' });
}
