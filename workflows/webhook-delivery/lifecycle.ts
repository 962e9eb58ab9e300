// Starting webhook delivery workflows: business ids, search attributes, and "already started" as success.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { CardAccountId, CardKind, CardStatus } from '../search-attributes.ts';
import type { WebhookDeliveryInput } from '../webhook-delivery.ts';

export const deliveryWorkflowId = (accountId: number, eventId: string, endpointId: number) => `webhook/${accountId}/${eventId}/${endpointId}`;
export const testWorkflowId = (accountId: number, deliveryId: number) => `webhook-test/${accountId}/${deliveryId}`;
export const replayWorkflowId = (accountId: number, deliveryId: number, replayId: string) => `webhook-replay/${accountId}/${deliveryId}/${replayId}`;

export interface WorkflowTarget {
  client: Client;
  taskQueue: string;
}

/** Starts the workflow once: a start that finds its id taken (a retry, another drainer) is a success. */
export async function startDeliveryWorkflow(target: WorkflowTarget, workflowId: string, accountId: number, input: WebhookDeliveryInput): Promise<void> {
  try {
    await target.client.workflow.start('webhookDeliveryWorkflow', {
      taskQueue: target.taskQueue,
      workflowId,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: CardAccountId, value: String(accountId) },
        { key: CardKind, value: 'webhook' },
        { key: CardStatus, value: 'Pending' },
      ],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
