// The automation firing's activities: thin wrappers over services/automations/{firing,find-due,batch}.ts. The batch
// runs on the bulk task queue and heartbeats once per micro-batch.
import type { ServiceContext } from '../services/context.ts';
import { automationBatchBounds, sendAutomationBatch, type AutomationBatchInput } from '../services/automations/batch.ts';
import { findDue, type FindDueInput } from '../services/automations/find-due.ts';
import { advanceWatermark, advanceZoneWatermark, planFiring, sendWaves, type FiringPlan, type PlanInput } from '../services/automations/firing.ts';
import type { AutomationBatchCounts, FindDueResult } from '../workflows/automation/contract.ts';
import { BATCH_ATTEMPTS } from '../workflows/shared/bulk.ts';
import { currentAttempt } from './attempt.ts';

export function createAutomationActivities(ctx: ServiceContext) {
  return {
    planAutomationFiring: (input: PlanInput): Promise<FiringPlan> => planFiring(ctx, input),
    findAutomationDue: (input: FindDueInput): Promise<FindDueResult> => findDue(ctx, input),
    advanceAutomationWatermark: (input: { automationId: number; firingDate: string; zone?: string }): Promise<boolean> =>
      input.zone ? advanceZoneWatermark(ctx, input.automationId, input.zone, input.firingDate) : advanceWatermark(ctx, input.automationId, input.firingDate),
    automationSendWaves: (input: { automationId: number; firingDate: string; zone: string | null }): Promise<string[]> => sendWaves(ctx, input),
    automationBatchBounds: (input: { automationId: number; firingDate: string; afterId: number; limit: number; count: number; wave?: AutomationBatchInput['wave'] }): Promise<number[]> =>
      automationBatchBounds(ctx, input),
    sendAutomationBatch: (input: AutomationBatchInput): Promise<AutomationBatchCounts> => sendAutomationBatch(ctx, input, currentAttempt(BATCH_ATTEMPTS)),
  };
}
