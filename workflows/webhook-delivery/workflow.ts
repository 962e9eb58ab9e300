// One webhook delivery: try at once, then retry on the schedule it was given (timers, not activity retries),
// honouring a 429's Retry-After; the activities record every attempt and settle the delivery's end.
import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import { showStatus } from '../shared/status.ts';
import type { WebhookDeliveryInput } from './contract.ts';

// The attempt itself never throws for an HTTP outcome; these retries cover only the service's own failures
// (database down, worker lost), and the attempt key keeps a repeated activity from recording twice.
const RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' } as const;
const activities = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: RETRY });

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<string> {
  const { workflowId } = workflowInfo();
  const delays = input.trigger === 'auto' ? input.retryDelaysSeconds : [];
  const steps = input.attemptTimeoutSeconds ? proxyActivities<Activities>({ startToCloseTimeout: `${input.attemptTimeoutSeconds} seconds`, retry: RETRY }) : activities;
  for (let attempt = 1; ; attempt++) {
    const outcome = await steps.attemptWebhookDelivery({ deliveryId: input.deliveryId, trigger: input.trigger, attemptKey: `${workflowId}#${attempt}` });
    const retriesLeft = attempt <= delays.length;
    if (outcome.result !== 'failed' || !retriesLeft) {
      const status = await steps.finishWebhookDelivery({
        deliveryId: input.deliveryId,
        trigger: input.trigger,
        result: outcome.result,
        error: outcome.error,
      });
      showStatus(status);
      return status;
    }
    await steps.markWebhookRetrying({ deliveryId: input.deliveryId, trigger: input.trigger, error: outcome.error });
    showStatus('Retrying');
    const delay = Math.max(delays[attempt - 1]!, outcome.retryAfterSeconds ?? 0);
    await sleep(Math.round(delay * 1000));
  }
}
