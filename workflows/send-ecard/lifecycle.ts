// Starting and canceling send workflows: business ids, search attributes, "already started" as success.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { WorkflowTarget } from '../webhook-delivery/lifecycle.ts';
import { CardAccountId, CardKind, CardStatus } from '../search-attributes.ts';
import type { SendEcardInput, SendEcardResult } from '../send-ecard.ts';

export const sendWorkflowId = (accountId: number, sendId: string) => `send/${accountId}/${sendId}`;

export async function startSendWorkflow(target: WorkflowTarget, accountId: number, sendId: string, status: string, input: SendEcardInput): Promise<void> {
  try {
    await target.client.workflow.start('sendEcardWorkflow', {
      taskQueue: target.taskQueue,
      workflowId: sendWorkflowId(accountId, sendId),
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: CardAccountId, value: String(accountId) },
        { key: CardKind, value: 'send' },
        { key: CardStatus, value: status },
      ],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** The send's result, or undefined when it has not finished within `waitMs`. */
export async function awaitSendResult(target: WorkflowTarget, accountId: number, sendId: string, waitMs: number): Promise<SendEcardResult | undefined> {
  const handle = target.client.workflow.getHandle<(input: SendEcardInput) => Promise<SendEcardResult>>(sendWorkflowId(accountId, sendId));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  try {
    return await Promise.race([handle.result(), deadline]);
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
