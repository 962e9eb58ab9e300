// `npm run bundle-workflows -- <file>`: bundles the workflows once into a file that every worker of this same code can
// load (WORKFLOW_BUNDLE_PATH) instead of spending seconds of CPU bundling at its own start. CI makes one for the
// whole run: the two test passes, the drills' worker children, the scale test, the fuzz and the bench share it.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { runMain } from '../lib/main.ts';
import { bundledWorkflows } from '../lib/worker.ts';

await runMain('npm run bundle-workflows', async () => {
  const target = process.argv[2];
  if (!target) throw new Error('usage: npm run bundle-workflows -- <file>');
  const path = resolve(target);
  await writeFile(path, (await bundledWorkflows()).code);
  console.log(path);
});
