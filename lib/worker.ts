// Creates the Temporal worker that runs every workflow and activity of the service.
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { Connection } from '@temporalio/client';
import type { Logger } from './logger.ts';
import { runningFromSource } from './paths.ts';
import { registerSearchAttributes } from './temporal.ts';

/** The bundle entry of the workflows: the .ts sources, or the .js build when running from dist/. */
export const workflowsPath = fileURLToPath(new URL(`../workflows/index.${runningFromSource ? 'ts' : 'js'}`, import.meta.url));

export const workerIdentity = `${process.pid}@${hostname()}`;

let runtimeInstalled = false;
/** Routes the SDK's own logs (warn and above) into ours; the runtime is installed once per process. */
function installRuntime(logger: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    logger: new DefaultLogger('WARN', ({ level, message, meta }) => {
      if (level === 'ERROR') logger.error(meta ?? {}, message);
      else logger.warn(meta ?? {}, message);
    }),
  });
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activities: object;
  logger: Logger;
  /** false: an activity-only worker (the bulk task queue). */
  workflows?: boolean;
  /** Activities this worker runs at once (the bulk queue's cap). */
  maxConcurrentActivities?: number;
}

export async function createWorker(o: WorkerOptions): Promise<{ worker: Worker; close: () => Promise<void> }> {
  installRuntime(o.logger);
  const client = await Connection.connect({ address: o.address });
  try {
    await registerSearchAttributes(client, o.namespace);
  } finally {
    await client.close();
  }
  const connection = await NativeConnection.connect({ address: o.address });
  const worker = await Worker.create({
    connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    ...(o.workflows === false ? {} : { workflowsPath }),
    activities: o.activities,
    ...(o.maxConcurrentActivities ? { maxConcurrentActivityTaskExecutions: o.maxConcurrentActivities } : {}),
    identity: workerIdentity,
  });
  return { worker, close: () => connection.close() };
}
