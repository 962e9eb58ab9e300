// Starting webhook delivery workflows: business ids, started once.
import { startOnce, type WorkflowTarget } from '../shared/start.ts';
import type { WebhookDeliveryInput } from '../webhook-delivery.ts';

export const deliveryWorkflowId = (accountId: number, eventId: string, endpointId: number) => `webhook/${accountId}/${eventId}/${endpointId}`;
export const testWorkflowId = (accountId: number, deliveryId: number) => `webhook-test/${accountId}/${deliveryId}`;
export const replayWorkflowId = (accountId: number, deliveryId: number, replayId: string) => `webhook-replay/${accountId}/${deliveryId}/${replayId}`;

/** Starts the workflow once: a start that finds its id taken (a retry, another drainer) is a success. */
export async function startDeliveryWorkflow(target: WorkflowTarget, workflowId: string, accountId: number, input: WebhookDeliveryInput): Promise<void> {
  await startOnce(target, { workflowType: 'webhookDeliveryWorkflow', workflowId, args: [input], accountId, kind: 'webhook', status: 'Pending' });
}
