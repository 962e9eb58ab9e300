// Teardown registry: shared parts register here and the root hook stops them after the run; a test file's own parts
// (a browser page) register to end with their file, so they do not live on, and use the cores, for the rest of it.
// Kept on globalThis: mocha loads the root-hook file through require() and the tests through import,
// which gives this module two instances.
type Task = () => Promise<void>;
interface FileTasks {
  /** Registered since the last test ended: they belong to the file whose test ends next. */
  unclaimed: Task[];
  byFile: Map<string, Task[]>;
}
const registry = globalThis as typeof globalThis & { __cardsvcCleanup?: Task[]; __cardsvcFileCleanup?: FileTasks };
const tasks: Task[] = (registry.__cardsvcCleanup ??= []);
const fileTasks: FileTasks = (registry.__cardsvcFileCleanup ??= { unclaimed: [], byFile: new Map<string, Task[]>() });

export function onSuiteEnd(task: () => Promise<void>): void {
  tasks.unshift(task);
}

/**
 * Runs `task` once the test file that registered it has run its last test (when the next file's first test starts,
 * or after the run). A task registered in a file's `before` hook belongs to that file: tasks are claimed by the file
 * whose test ends next.
 */
export function onFileEnd(task: () => Promise<void>): void {
  fileTasks.unclaimed.unshift(task);
}

async function runAll(list: Array<() => Promise<void>>): Promise<void> {
  for (const task of list.splice(0)) await task().catch((err: unknown) => console.error('cleanup failed:', err));
}

/** The root hooks' part: a test of `file` has ended (claims the unclaimed tasks for it). */
export function testEnded(file: string | undefined): void {
  if (!file) return;
  const claimed = fileTasks.byFile.get(file) ?? [];
  claimed.unshift(...fileTasks.unclaimed.splice(0));
  fileTasks.byFile.set(file, claimed);
}

/** The root hooks' part: a test of `file` starts; the files before it are done. */
export async function testStarting(file: string | undefined): Promise<void> {
  for (const [done, list] of fileTasks.byFile) {
    if (done === file) continue;
    fileTasks.byFile.delete(done);
    await runAll(list);
  }
}

export async function runSuiteCleanup(): Promise<void> {
  for (const list of fileTasks.byFile.values()) await runAll(list);
  fileTasks.byFile.clear();
  await runAll(fileTasks.unclaimed);
  await runAll(tasks);
}
