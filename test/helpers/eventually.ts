// Waits for a condition that background work (not awaited by the request) makes true.
import { setTimeout as sleep } from 'node:timers/promises';

export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 3000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(intervalMs);
  }
}
