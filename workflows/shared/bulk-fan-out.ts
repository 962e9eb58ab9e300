// Inside the bulk fan-outs (a campaign's, an automation firing's): the batch activity's options (the bulk task
// queue, heartbeat, BATCH_ATTEMPTS), a pool of lanes over the batches, and count sums.
import type { ActivityOptions } from '@temporalio/workflow';
import { BATCH_ATTEMPTS, type BulkSettings } from './bulk.ts';

/** How a batch activity runs: on the bulk task queue, heartbeating, BATCH_ATTEMPTS tries. */
export function batchActivityOptions(bulk: BulkSettings): ActivityOptions {
  return {
    taskQueue: bulk.taskQueue,
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: bulk.heartbeatSeconds * 1000,
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: BATCH_ATTEMPTS },
  };
}

/** Runs `work` for batches 0 … count − 1, in order, at most `concurrency` at once. */
export async function inLanes(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

export function addCounts<K extends string>(a: Record<K, number>, b: Record<K, number>): Record<K, number> {
  return Object.fromEntries(Object.keys(a).map((k) => [k, a[k as K] + b[k as K]])) as Record<K, number>;
}
