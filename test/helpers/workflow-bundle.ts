// The suite's workflow bundle as a file (WORKFLOW_BUNDLE_PATH), so each worker (the suite's own, crash tests' and
// drills' children) starts without spending seconds bundling again. CI bundles once for the whole run
// (`npm run bundle-workflows`) and hands the file down in WORKFLOW_BUNDLE_PATH; without it, the process makes one
// from the bundle its own worker uses.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { bundledWorkflows } from '../../lib/worker.ts';
import { tempDir } from './env.ts';

let file: Promise<string> | undefined;

export function workflowBundleFile(): Promise<string> {
  const given = process.env.WORKFLOW_BUNDLE_PATH;
  file ??= given
    ? Promise.resolve(resolve(given))
    : (async () => {
        const path = join(tempDir(), 'workflow-bundle.js');
        await writeFile(path, (await bundledWorkflows()).code);
        return path;
      })();
  return file;
}
