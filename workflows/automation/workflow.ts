// One firing of an automation, started by its Temporal Schedule (`automation/<accountId>/<id>`): it re-reads the
// automation (ends when it is gone or disabled), takes the firing's local date D from the Schedule's nominal time,
// inserts the rows due in (W, D] (and the missed ones), moves the watermark to D, and sends D's pending rows in a
// child fan-out whose id is (automation, D), so two firings of one day never send at once.
// Local time (patch LOCAL_TIME): a firing may be one zone's (`automation/<account>/<id>/<zone>`, D local there, its
// own watermark, its child's id ending in the zone); every row has a send_at (the firing's moment, after the
// recipient's quiet hours), and the rows go in waves, one per distinct send_at, each after a wakeable wait for it.
import { defineSearchAttributeKey, SearchAttributeType, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { executeChild, patched, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import { addCounts } from '../shared/bulk-fan-out.ts';
import type { BulkSettings } from '../shared/bulk.ts';
import { wakeableSleeper } from '../shared/sleep-until.ts';
import { showStatus } from '../shared/status.ts';
import {
  AUTOMATION_FAN_OUT_WORKFLOW, automationFanOutWorkflowId,
  type AutomationBatchCounts, type AutomationFiringInput, type AutomationFiringResult, type AutomationWave,
} from './contract.ts';
import type { automationFanOutWorkflow } from './fan-out.ts';

// Set by the server on every workflow a Schedule starts: the action's nominal time (not when it actually ran).
const ScheduledStartTime = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

// How long a firing waits for another firing's fan-out of the same day before it leaves the rest to that one.
const FAN_OUT_WAIT = '10 seconds';
const FAN_OUT_WAITS = 60;

/** Firings with send_at, waves and zones (issue 34); histories from before it replay the old path. */
export const LOCAL_TIME_PATCH = 'automation-local-time';

const { planAutomationFiring, findAutomationDue, advanceAutomationWatermark, automationSendWaves } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * The input's time, else the Schedule's nominal time, else (a start by hand without one) the workflow's own start
 * time: all part of the history, so a replay reads the same D.
 */
function scheduledTimeOf(input: AutomationFiringInput): string {
  if (input.scheduledAt) return input.scheduledAt;
  const info = workflowInfo();
  const typed = info.typedSearchAttributes.get(ScheduledStartTime);
  if (typed) return typed.toISOString();
  // The untyped form of the same attribute (servers that send it without its type).
  const untyped = info.searchAttributes?.TemporalScheduledStartTime?.[0];
  if (untyped) return new Date(untyped as string).toISOString();
  return info.startTime.toISOString();
}

export async function automationFiringWorkflow(input: AutomationFiringInput): Promise<AutomationFiringResult> {
  return patched(LOCAL_TIME_PATCH) ? firingInWaves(input) : firingAtOnce(input);
}

/** The firing before local time: D's pending rows at once, in one fan-out. */
async function firingAtOnce(input: AutomationFiringInput): Promise<AutomationFiringResult> {
  const { accountId, automationId } = input;
  const plan = await planAutomationFiring({ accountId, automationId, scheduledAt: scheduledTimeOf(input) });
  if (plan.status !== 'ready' || !plan.firingDate || !plan.window) {
    showStatus(plan.status);
    return { status: plan.status === 'gone' ? 'gone' : 'disabled', firingDate: null, found: null, counts: null };
  }
  const firingDate = plan.firingDate;
  showStatus('finding');
  const found = await findAutomationDue({ accountId, automationId, firingDate, window: plan.window });
  await advanceAutomationWatermark({ automationId, firingDate });
  // The fan-out of D is one workflow at a time: a second firing of the same day waits for the running one, then
  // sends what that one may have left (rows it inserted after the other's last look), usually nothing.
  for (let waits = 0; ; waits++) {
    showStatus('sending');
    try {
      const counts = await executeChild<typeof automationFanOutWorkflow>(AUTOMATION_FAN_OUT_WORKFLOW, {
        workflowId: automationFanOutWorkflowId(accountId, automationId, firingDate),
        args: [{ accountId, automationId, firingDate, afterId: 0, bulk: plan.bulk, counts: null }],
      });
      showStatus('fired');
      return { status: 'fired', firingDate, found, counts };
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      if (waits >= FAN_OUT_WAITS) {
        showStatus('already_firing');
        return { status: 'already_firing', firingDate, found, counts: null };
      }
      showStatus('waiting');
      await sleep(FAN_OUT_WAIT);
    }
  }
}

/**
 * One fan-out of a wave (one at a time per (automation, D, zone): a second firing of the same day waits for the
 * running one, then sends what that one may have left); null when the other still ran after every wait.
 */
async function fanOutWave(
  input: { accountId: number; automationId: number; firingDate: string; wave: AutomationWave; bulk: BulkSettings },
): Promise<AutomationBatchCounts | null> {
  const { accountId, automationId, firingDate, wave, bulk } = input;
  for (let waits = 0; ; waits++) {
    showStatus('sending');
    try {
      return await executeChild<typeof automationFanOutWorkflow>(AUTOMATION_FAN_OUT_WORKFLOW, {
        workflowId: automationFanOutWorkflowId(accountId, automationId, firingDate, wave.zone),
        args: [{ accountId, automationId, firingDate, afterId: 0, bulk, counts: null, wave }],
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      if (waits >= FAN_OUT_WAITS) return null;
      showStatus('waiting');
      await sleep(FAN_OUT_WAIT);
    }
  }
}

/** The local-time firing: a zone's (or the automation's) rows with their send_at, sent in waves as each comes. */
async function firingInWaves(input: AutomationFiringInput): Promise<AutomationFiringResult> {
  const sleepUntil = wakeableSleeper();
  const { accountId, automationId } = input;
  const zone = input.zone ?? null;
  const at = scheduledTimeOf(input);
  const plan = await planAutomationFiring({ accountId, automationId, scheduledAt: at, ...(zone ? { zone } : {}) });
  if (plan.status !== 'ready' || !plan.firingDate || !plan.window) {
    showStatus(plan.status);
    return { status: plan.status === 'gone' ? 'gone' : 'disabled', firingDate: null, found: null, counts: null };
  }
  const firingDate = plan.firingDate;
  showStatus('finding');
  const found = await findAutomationDue({ accountId, automationId, firingDate, window: plan.window, at, zone });
  await advanceAutomationWatermark({ automationId, firingDate, ...(zone ? { zone } : {}) });
  let counts: AutomationBatchCounts = { sent: 0, failed: 0, unknown: 0, skipped: 0 };
  let dueAfter: string | null = null;
  for (const dueThrough of await automationSendWaves({ automationId, firingDate, zone })) {
    // The clock is the service's (a test moves it and signals `wake`); a wave already due goes at once.
    showStatus('waiting_for_send_time');
    await sleepUntil(Date.parse(dueThrough));
    const sent = await fanOutWave({ accountId, automationId, firingDate, wave: { zone, dueAfter, dueThrough }, bulk: plan.bulk });
    if (!sent) {
      showStatus('already_firing');
      return { status: 'already_firing', firingDate, found, counts: null };
    }
    counts = addCounts(counts, sent);
    dueAfter = dueThrough;
  }
  showStatus('fired');
  return { status: 'fired', firingDate, found, counts };
}
