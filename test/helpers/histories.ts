// Committed workflow histories for the replay check: `RECORD_HISTORIES=1 npm test` rewrites them from this run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { packageRoot } from '../../lib/paths.ts';

export async function maybeRecordHistory(client: Client, workflowId: string, fixtureName: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  writeFileSync(join(packageRoot, 'test', 'fixtures', 'histories', `${fixtureName}.json`), `${historyToJSON(history)}\n`);
}
