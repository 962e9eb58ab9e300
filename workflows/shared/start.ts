// Outside the sandbox (lifecycle code): where workflows start, and the one way to start one exactly once.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy, type Workflow } from '@temporalio/common';
import { cardAttributes, type CardKindValue } from './search-attributes.ts';

/** A Temporal client and the task queue the service's worker polls. */
export interface WorkflowTarget {
  client: Client;
  taskQueue: string;
}

/** One start, typed by the workflow's function type from its contract (`startOnce<SendEcardWorkflow>`). */
export interface StartOnce<W extends Workflow> {
  /** The contract's type name (workflows/index.ts checks it names a workflow of type W). */
  workflowType: string;
  /** A business id (`send/<account>/<sendId>`): starting it again is how a retry or a second process is recognized. */
  workflowId: string;
  args: Parameters<W>;
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
export async function startOnce<W extends Workflow>(target: WorkflowTarget, start: StartOnce<W>): Promise<void> {
  // Checked against W at the call (StartOnce<W>); the SDK's own options type cannot narrow a generic W's arguments.
  const args: unknown[] = start.args;
  try {
    await withStartDeadline(target, () =>
      target.client.workflow.start(start.workflowType, {
        taskQueue: target.taskQueue,
        workflowId: start.workflowId,
        args,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: cardAttributes(start.accountId, start.kind, start.status),
      }),
    );
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
