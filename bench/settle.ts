// Letting the stack settle before a pair: a pair can leave work behind it that outlives its last round (the dev
// server persisting and compacting thousands of finished histories, MariaDB purging their undo, the worker's
// activity and poller tails), and the next pair's rounds then share the two cores with it. P6 measured 0.95 alone
// and 0.6 right after P5 or P12 (docs/performance.md, "Full run, round four"). So each pair waits until the whole
// machine has been quiet for a while, read from /proc/stat (every process counts, whoever left the work), up to a
// cap after which it goes on and says so: a pair is never skipped for a busy machine, only marked.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** How the wait ended: seconds waited, and whether the machine was quiet by then or the cap was reached. */
export interface Settled {
  seconds: number;
  quiet: boolean;
  /** The busy share of all cores over the last sample (0–1). */
  busy: number;
}

export interface SettleOptions {
  /** The busy share of all cores under which a sample counts as quiet. */
  quietBelow: number;
  /** Consecutive quiet samples needed. */
  quietSamples: number;
  sampleMs: number;
  capMs: number;
}

// A quiet machine here reads 1–5 % busy between pairs; a stack digesting a pair's work reads 30–90 %.
export const SETTLE: SettleOptions = { quietBelow: 0.15, quietSamples: 3, sampleMs: 1000, capMs: 120_000 };

/** Jiffies all cores spent busy and in total since boot (the first line of /proc/stat). */
function cpuTimes(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/** Waits until the machine is quiet (see SETTLE), or the cap; where /proc/stat is absent it does not wait. */
export async function settle(options: SettleOptions = SETTLE): Promise<Settled> {
  const started = performance.now();
  let quietInARow = 0;
  let busy = 0;
  let before: ReturnType<typeof cpuTimes>;
  try {
    before = cpuTimes();
  } catch {
    return { seconds: 0, quiet: true, busy: 0 };
  }
  while (performance.now() - started < options.capMs) {
    await new Promise((resolve) => setTimeout(resolve, options.sampleMs));
    const after = cpuTimes();
    busy = after.total > before.total ? (after.busy - before.busy) / (after.total - before.total) : 0;
    before = after;
    quietInARow = busy < options.quietBelow ? quietInARow + 1 : 0;
    if (quietInARow >= options.quietSamples) break;
  }
  return { seconds: Math.round((performance.now() - started) / 100) / 10, quiet: quietInARow >= options.quietSamples, busy: Number(busy.toFixed(3)) };
}

/** A line for the run's log. */
export const settledLine = (s: Settled) =>
  `${s.quiet ? 'settled' : 'not settled'} after ${s.seconds} s (${Math.round(s.busy * 100)} % of ${availableParallelism()} cores busy in the last second)`;
