// Runs last (.mocharc.cjs names it after the suite's `*.test.ts` glob, mocha's global sort off): replays
// committed histories and every workflow run during this suite, so a change that would break running
// workflows fails the build.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { expect } from 'chai';
import { mysqlUrl } from '../helpers/env.ts';
import { packageRoot } from '../../lib/paths.ts';
import { testClient } from '../helpers/temporal.ts';
import { workflowBundleFile } from '../helpers/workflow-bundle.ts';
import { SET_UP_PROBE_ID } from '../../lib/temporal-set-up.ts';

const fixturesDir = join(packageRoot, 'test', 'fixtures', 'histories');

function committedHistories() {
  return readdirSync(fixturesDir)
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({ workflowId: file, history: historyFromJSON(JSON.parse(readFileSync(join(fixturesDir, file), 'utf8'))) }));
}

async function* recordedHistories() {
  const client = await testClient();
  for await (const execution of client.workflow.list()) {
    // The workers' set-up probe (lib/temporal.ts) is terminated before any worker runs it: no code to replay.
    if (execution.workflowId === SET_UP_PROBE_ID) continue;
    const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    yield { workflowId: execution.workflowId, history };
  }
}

async function replayAll(histories: AsyncIterable<{ workflowId: string; history: unknown }> | Iterable<{ workflowId: string; history: unknown }>) {
  const results: ReplayResult[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle: { codePath: await workflowBundleFile() } }, histories as never)) results.push(result);
  return results;
}

describe('workflow replay (determinism)', function () {
  this.timeout(120_000);
  // The workflows do not depend on the database: CI replays in its SQLite passes only (the one touching the
  // database and the one without it, each the histories its own process recorded).
  before(function () {
    if (mysqlUrl) this.skip();
  });

  it('replays every committed history under test/fixtures/histories without nondeterminism', async () => {
    const histories = committedHistories();
    expect(histories.length, 'at least one committed history').to.be.greaterThan(0);
    const failures = (await replayAll(histories)).filter((r) => r.error);
    expect(failures.map((f) => `${f.workflowId}: ${String(f.error)}`)).to.deep.equal([]);
  });

  it('replays every workflow history recorded during this run', async () => {
    const results = await replayAll(recordedHistories());
    expect(results.length, 'the suite ran workflows').to.be.greaterThan(0);
    expect(results.filter((r) => r.error).map((f) => `${f.workflowId}: ${String(f.error)}`)).to.deep.equal([]);
  });
});
