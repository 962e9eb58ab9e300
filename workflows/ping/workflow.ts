// A one-activity workflow that proves a worker is polling: operators and the test suite start it (PING_WORKFLOW).
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';

const { pong } = proxyActivities<Activities>({ startToCloseTimeout: '10 seconds' });

export async function pingWorkflow(message: string): Promise<string> {
  return pong(message);
}
