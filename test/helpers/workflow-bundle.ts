// The suite's workflow bundle as a file (WORKFLOW_BUNDLE_PATH): made once per test process from the bundle its own
// worker uses, so each worker child process (crash tests, drills) starts without spending seconds bundling again.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundledWorkflows } from '../../lib/worker.ts';
import { tempDir } from './env.ts';

let file: Promise<string> | undefined;

export function workflowBundleFile(): Promise<string> {
  file ??= (async () => {
    const path = join(tempDir(), 'workflow-bundle.js');
    await writeFile(path, (await bundledWorkflows()).code);
    return path;
  })();
  return file;
}
