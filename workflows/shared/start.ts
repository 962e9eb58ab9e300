// Outside the sandbox (lifecycle code): where workflows start, and the one way to start one exactly once.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { cardAttributes, type CardKindValue } from './search-attributes.ts';

/** A Temporal client and the task queue the service's worker polls. */
export interface WorkflowTarget {
  client: Client;
  taskQueue: string;
}

export interface StartOnce {
  workflowType: string;
  /** A business id (`send/<account>/<sendId>`): starting it again is how a retry or a second process is recognized. */
  workflowId: string;
  args: unknown[];
  accountId: number;
  kind: CardKindValue;
  status: string;
}

/**
 * How long one start may wait on Temporal. Without it the SDK's retries held an API request about 20 s while the
 * server was down (the drills); the work is committed first, so a start given up on is the background pass's later.
 */
export const START_DEADLINE_MS = 5_000;

/** A start (or wake) on Temporal within START_DEADLINE_MS. */
export function withStartDeadline<T>(target: WorkflowTarget, work: () => Promise<T>): Promise<T> {
  return target.client.withDeadline(Date.now() + START_DEADLINE_MS, work);
}

/** Starts the workflow once: a start that finds its id taken (a retry, a sweeper, another process) is a success. */
export async function startOnce(target: WorkflowTarget, start: StartOnce): Promise<void> {
  try {
    await withStartDeadline(target, () =>
      target.client.workflow.start(start.workflowType, {
        taskQueue: target.taskQueue,
        workflowId: start.workflowId,
        args: start.args,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: cardAttributes(start.accountId, start.kind, start.status),
      }),
    );
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
