// The automation firing's activities: thin wrappers over services/automations/{firing,find-due,batch}.ts. The batch
// runs on the bulk task queue and heartbeats once per micro-batch.
import type { ServiceContext } from '../services/context.ts';
import { automationBatchBounds, sendAutomationBatch, type AutomationBatchInput } from '../services/automations/batch.ts';
import { findDue, type FindDueInput } from '../services/automations/find-due.ts';
import { advanceWatermark, planFiring, type FiringPlan, type PlanInput } from '../services/automations/firing.ts';
import type { AutomationBatchCounts, FindDueResult } from '../workflows/automation/contract.ts';
import { BATCH_ATTEMPTS } from '../workflows/shared/bulk.ts';
import { currentAttempt } from './attempt.ts';

export function createAutomationActivities(deps: ServiceContext) {
  return {
    planAutomationFiring: (input: PlanInput): Promise<FiringPlan> => planFiring(deps, input),
    findAutomationDue: (input: FindDueInput): Promise<FindDueResult> => findDue(deps, input),
    advanceAutomationWatermark: (input: { automationId: number; firingDate: string }): Promise<boolean> => advanceWatermark(deps, input.automationId, input.firingDate),
    automationBatchBounds: (input: { automationId: number; firingDate: string; afterId: number; limit: number; count: number }): Promise<number[]> =>
      automationBatchBounds(deps, input),
    sendAutomationBatch: (input: AutomationBatchInput): Promise<AutomationBatchCounts> => sendAutomationBatch(deps, input, currentAttempt(BATCH_ATTEMPTS)),
  };
}
