// Where the package lives, so data and migrations resolve the same from any working directory.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

/** The folder holding package.json (the same for source runs and for a build in dist/). */
export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** True when this code runs from the TypeScript sources rather than a build in dist/. */
export const runningFromSource = import.meta.url.endsWith('.ts');
