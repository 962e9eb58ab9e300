// One send: wait durably until its time (scheduled sends), then one activity renders the card and emails every
// recipient at most once; a cancel while waiting ends it. The activity's retries cover SMTP's temporary failures.
import { ActivityFailure, isCancellation, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import { showStatus } from '../shared/status.ts';
import { DISPATCH_ATTEMPTS, DISPATCH_HEARTBEAT_SECONDS, type SendEcardInput, type SendEcardResult } from './contract.ts';

export async function sendEcardWorkflow(input: SendEcardInput): Promise<SendEcardResult> {
  const { dispatchSend, failSend } = proxyActivities<Activities>({
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: (input.heartbeatSeconds ?? DISPATCH_HEARTBEAT_SECONDS) * 1000,
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: DISPATCH_ATTEMPTS },
  });
  const wait = input.sendAtMs - workflowInfo().runStartTime.getTime();
  try {
    if (wait > 0) await sleep(wait);
  } catch (err) {
    if (!isCancellation(err)) throw err;
    showStatus('canceled');
    return { status: 'canceled', emailsSent: 0, error: null };
  }
  showStatus('pending');
  let result: SendEcardResult;
  try {
    result = await dispatchSend({ sendPk: input.sendPk });
  } catch (err) {
    const cause = err instanceof ActivityFailure && err.cause ? err.cause.message : String(err);
    result = await failSend({ sendPk: input.sendPk, reason: cause });
  }
  showStatus(result.status);
  return result;
}
