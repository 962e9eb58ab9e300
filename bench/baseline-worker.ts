// P5's baseline worker (a process of its own, as the service's worker is): a bare Temporal worker polling
// BENCH_TASK_QUEUE with one workflow and one activity, a single `fetch` POST.
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';

const activities = {
  async postOnce(url: string, body: string): Promise<number> {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    await res.arrayBuffer();
    return res.status;
  },
};
export type BaselineActivities = typeof activities;

if (process.env.BENCH_TASK_QUEUE) {
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue: process.env.BENCH_TASK_QUEUE,
    workflowsPath: fileURLToPath(new URL('./baseline-workflows.ts', import.meta.url)),
    activities,
  });
  process.once('SIGTERM', () => worker.shutdown());
  await worker.run();
  await connection.close();
}
