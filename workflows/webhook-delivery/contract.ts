// The webhook delivery workflow's contract (pure: the workflow and its lifecycle import it): its type name, its
// business ids (an event's delivery to one endpoint, a test, a replay), and its input.
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';

export const deliveryWorkflowId = (accountId: number, eventId: string, endpointId: number) => `webhook/${accountId}/${eventId}/${endpointId}`;
export const testWorkflowId = (accountId: number, deliveryId: number) => `webhook-test/${accountId}/${deliveryId}`;
export const replayWorkflowId = (accountId: number, deliveryId: number, replayId: string) => `webhook-replay/${accountId}/${deliveryId}/${replayId}`;

export interface WebhookDeliveryInput {
  deliveryId: number;
  /** `auto`: an event's delivery with retries; `replay` and `test` try once. */
  trigger: 'auto' | 'replay' | 'test';
  /** Seconds to wait before each retry (configuration: WEBHOOK_RETRY_DELAYS). */
  retryDelaysSeconds: number[];
  /**
   * How long one activity may run before Temporal tries it again (the HTTP timeout plus room for the database): an
   * activity on a worker that died is retried after this. Absent (histories from before it): 2 minutes.
   */
  attemptTimeoutSeconds?: number;
}

/** The workflow's function type: starts name it (workflows/index.ts); it returns the delivery's final status. */
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<string>;
