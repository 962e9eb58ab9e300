// Waits for a condition that background work (not awaited by the request) makes true. It waits on the state, not on
// a guess of how fast the machine is: the deadline only bounds a wait that will never end, and CI runs two test
// passes side by side on two cores, so background work can take many times its quiet-machine time.
import { setTimeout as sleep } from 'node:timers/promises';

/** The default bound: well above what any background step takes on a loaded machine, below mocha's 30 s test timeout. */
export const EVENTUALLY_MS = 20_000;

export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = EVENTUALLY_MS, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(intervalMs);
  }
}
