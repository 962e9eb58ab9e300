// Teardown registry: shared parts register here and the root hook stops them after the run.
// Kept on globalThis: mocha loads the root-hook file through require() and the tests through import,
// which gives this module two instances.
const registry = globalThis as typeof globalThis & { __cardsvcCleanup?: Array<() => Promise<void>> };
const tasks = (registry.__cardsvcCleanup ??= []);

export function onSuiteEnd(task: () => Promise<void>): void {
  tasks.unshift(task);
}

export async function runSuiteCleanup(): Promise<void> {
  for (const task of tasks.splice(0)) await task().catch((err: unknown) => console.error('cleanup failed:', err));
}
