// Creates the Temporal worker that runs every workflow and activity of the service.
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { Connection } from '@temporalio/client';
import type { Logger } from './logger.ts';
import { runningFromSource } from './paths.ts';
import { setUpTemporal } from './temporal-set-up.ts';

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

let workflowBundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/**
 * The workflows bundled once per process: bundling costs seconds of CPU, and a process that starts its worker again
 * (the test suite, about a hundred times) would pay them each time. The code cannot change while the process runs.
 */
export function bundledWorkflows(logger?: Logger): Promise<WorkflowBundleWithSourceMap> {
  workflowBundle ??= bundleWorkflowCode({
    workflowsPath,
    logger: new DefaultLogger('WARN', ({ level, message }) => (level === 'ERROR' ? logger?.error(message) : logger?.warn(message))),
  });
  workflowBundle.catch(() => (workflowBundle = undefined));
  return workflowBundle;
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  /** The namespace's retention, should this worker be the first to register it. */
  retentionDays: number;
  taskQueue: string;
  activities: object;
  logger: Logger;
  /** false: an activity-only worker (the bulk task queue). */
  workflows?: boolean;
  /** A file of the workflows bundled from this code already (WORKFLOW_BUNDLE_PATH); else they are bundled here. */
  workflowBundlePath?: string | undefined;
  /** Activities this worker runs at once (the bulk queue's cap). */
  maxConcurrentActivities?: number;
}

export async function createWorker(o: WorkerOptions): Promise<{ worker: Worker; close: () => Promise<void> }> {
  installRuntime(o.logger);
  const client = await Connection.connect({ address: o.address });
  try {
    // The service's own set-up on any Temporal server: the namespace and search attributes, idempotent.
    await setUpTemporal(client, o.namespace, o.retentionDays);
  } finally {
    await client.close();
  }
  const bundle = o.workflows === false ? undefined : o.workflowBundlePath ? { codePath: o.workflowBundlePath } : await bundledWorkflows(o.logger);
  const connection = await NativeConnection.connect({ address: o.address });
  const worker = await Worker.create({
    connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    ...(bundle ? { workflowBundle: bundle } : {}),
    activities: o.activities,
    ...(o.maxConcurrentActivities ? { maxConcurrentActivityTaskExecutions: o.maxConcurrentActivities } : {}),
    identity: workerIdentity,
  });
  return { worker, close: () => connection.close() };
}
