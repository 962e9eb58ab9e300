// Teardown registry: shared parts register here and the root hook stops them after the run.
const tasks: Array<() => Promise<void>> = [];

export function onSuiteEnd(task: () => Promise<void>): void {
  tasks.unshift(task);
}

export async function runSuiteCleanup(): Promise<void> {
  for (const task of tasks.splice(0)) await task().catch((err: unknown) => console.error('cleanup failed:', err));
}
