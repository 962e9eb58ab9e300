// The automation firing's activities: thin wrappers over services/automations/{firing,find-due,batch}.ts. The batch
// runs on the bulk task queue and heartbeats once per micro-batch.
import { Context } from '@temporalio/activity';
import type { ServiceContext } from '../services/context.ts';
import { automationBatchBounds, sendAutomationBatch, type AutomationBatchCounts, type AutomationBatchInput } from '../services/automations/batch.ts';
import { findDue, type FindDueInput, type FindDueResult } from '../services/automations/find-due.ts';
import { advanceWatermark, planFiring, type FiringPlan, type PlanInput } from '../services/automations/firing.ts';
import { BATCH_ATTEMPTS } from '../workflows/campaign/policy.ts';

export function createAutomationActivities(deps: ServiceContext) {
  return {
    planAutomationFiring: (input: PlanInput): Promise<FiringPlan> => planFiring(deps, input),
    findAutomationDue: (input: FindDueInput): Promise<FindDueResult> => findDue(deps, input),
    advanceAutomationWatermark: (input: { automationId: number; firingDate: string }): Promise<boolean> => advanceWatermark(deps, input.automationId, input.firingDate),
    automationBatchBounds: (input: { automationId: number; firingDate: string; afterId: number; limit: number; count: number }): Promise<number[]> =>
      automationBatchBounds(deps, input),
    async sendAutomationBatch(input: AutomationBatchInput): Promise<AutomationBatchCounts> {
      const context = Context.current();
      return sendAutomationBatch(deps, input, { lastTry: context.info.attempt >= BATCH_ATTEMPTS, heartbeat: () => context.heartbeat() });
    },
  };
}
