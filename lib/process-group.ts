// The life of a server child started in its own process group (the Temporal dev server, the Temporal server): is
// it alive, stop it (SIGINT, then SIGKILL), kill it as a crash would.
import { setTimeout as sleep } from 'node:timers/promises';

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** SIGINT to the group, then SIGKILL if it has not exited in time. */
export async function stopGroup(pid: number, graceMs = 10_000): Promise<void> {
  signalGroup(pid, 'SIGINT');
  if (!(await waitForExit(pid, graceMs))) {
    signalGroup(pid, 'SIGKILL');
    await waitForExit(pid, 2_000);
  }
}

/** SIGKILL to the group, as a crash would end it (the drills), waiting until it is gone. */
export async function killGroup(pid: number): Promise<void> {
  signalGroup(pid, 'SIGKILL');
  await waitForExit(pid, 5_000);
}
