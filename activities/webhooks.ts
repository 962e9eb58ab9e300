// The webhook delivery workflow's activities: thin wrappers over services/webhooks/attempts.ts.
import type { AttemptOutcome, AttemptTrigger } from '../models/WebhookAttempt.ts';
import type { ServiceContext } from '../services/context.ts';
import { attemptDelivery, finishDelivery, markRetrying, type AttemptResult } from '../services/webhooks/attempts.ts';

export function createWebhookActivities(ctx: ServiceContext) {
  return {
    /** Signs and POSTs once; an HTTP outcome is the result, never an exception. */
    async attemptWebhookDelivery(input: { deliveryId: number; trigger: AttemptTrigger; attemptKey: string }): Promise<AttemptResult> {
      return attemptDelivery(ctx, input);
    },
    async markWebhookRetrying(input: { deliveryId: number; trigger: AttemptTrigger; error: string | null }): Promise<void> {
      await markRetrying(ctx, input);
    },
    async finishWebhookDelivery(input: { deliveryId: number; trigger: AttemptTrigger; result: AttemptOutcome; error: string | null }): Promise<string> {
      return finishDelivery(ctx, input);
    },
  };
}
