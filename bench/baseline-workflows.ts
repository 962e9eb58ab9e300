// The baseline workflow of P5 (bench/webhooks.ts): one activity doing one `fetch`, nothing else.
import { proxyActivities } from '@temporalio/workflow';
import type { BaselineActivities } from './baseline-worker.ts';

const { postOnce } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '30 seconds' });

export async function fetchOnceWorkflow(url: string, body: string): Promise<number> {
  return postOnce(url, body);
}
