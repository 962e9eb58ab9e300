// Starting, awaiting and canceling send workflows: business ids, started once.
import { WorkflowNotFoundError } from '@temporalio/client';
import { startOnce, type WorkflowTarget } from '../shared/start.ts';
import { SEND_ECARD_WORKFLOW, sendWorkflowId, type SendEcardInput, type SendEcardResult, type SendEcardWorkflow } from './contract.ts';

export async function startSendWorkflow(target: WorkflowTarget, accountId: number, sendId: string, status: string, input: SendEcardInput): Promise<void> {
  await startOnce<SendEcardWorkflow>(target, { workflowType: SEND_ECARD_WORKFLOW, workflowId: sendWorkflowId(accountId, sendId), args: [input], accountId, kind: 'send', status });
}

/** The send's result, or undefined when it has not finished within `waitMs`. */
export async function awaitSendResult(target: WorkflowTarget, accountId: number, sendId: string, waitMs: number): Promise<SendEcardResult | undefined> {
  const handle = target.client.workflow.getHandle<SendEcardWorkflow>(sendWorkflowId(accountId, sendId));
  // The deadline aborts the long poll itself: a poll left running would retry on a connection closed at shutdown.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), waitMs);
  try {
    // The abort alone does not stop the SDK's retries of a server that is down (an API request waited ~20 s in the
    // drills): a gRPC deadline a second later ends those too.
    return await target.client.withDeadline(Date.now() + waitMs + 1000, () => target.client.withAbortSignal(deadline.signal, () => handle.result()));
  } catch (err) {
    if (deadline.signal.aborted) return undefined;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Cancels the waiting workflow (the send row is already canceled); a workflow already gone is fine. */
export async function cancelSendWorkflow(target: WorkflowTarget, accountId: number, sendId: string): Promise<void> {
  try {
    await target.client.workflow.getHandle(sendWorkflowId(accountId, sendId)).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}
