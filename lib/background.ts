// Runs a process's background passes in one loop: each pass does a batch of work and says whether more is
// waiting; the loop goes again at once when one does or when it was nudged, else it sleeps for the interval.
// Periodic work is made of conditional claims, so several processes can run the same passes safely.
import type { Logger } from './logger.ts';

export interface BackgroundPass {
  /** For logs: "webhook outbox", "send starts", ... */
  name: string;
  /** One batch; true when there may be more right away. */
  run(): Promise<boolean>;
}

export interface BackgroundScheduler {
  /** Starts the loop (once); until then, nudges do nothing. */
  start(): void;
  /** Something was committed for the passes: run them again now instead of at the next sweep. */
  nudge(): void;
  /** Stops after the pass in progress. */
  stop(): Promise<void>;
}

export function backgroundScheduler(passes: readonly BackgroundPass[], options: { intervalMs: number; logger: Logger }): BackgroundScheduler {
  let running = false;
  let nudged = false;
  let wake: (() => void) | undefined;
  let loop: Promise<void> | undefined;

  const runLoop = async () => {
    while (running) {
      nudged = false;
      let more = false;
      for (const pass of passes) {
        try {
          more = (await pass.run()) || more;
        } catch (err) {
          options.logger.warn({ err, pass: pass.name }, `the background pass "${pass.name}" failed; retrying at the next sweep`);
        }
      }
      if (more || nudged || !running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  return {
    start() {
      if (loop) return;
      running = true;
      loop = runLoop();
    },
    nudge() {
      if (!running) return;
      nudged = true;
      wake?.();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = undefined;
    },
  };
}

/**
 * A pass that runs at most once per `everyMs` (the first time at the loop's start; sweeps and nudges in between
 * skip it), for slow periodic work such as a reconciler. A run that says more is waiting is followed at once.
 */
export function periodicPass(pass: BackgroundPass, everyMs: number, clock: () => number = () => performance.now()): BackgroundPass {
  let lastRun: number | undefined;
  return {
    name: pass.name,
    async run() {
      const now = clock();
      if (lastRun !== undefined && now - lastRun < everyMs) return false;
      lastRun = now;
      const more = await pass.run();
      if (more) lastRun = undefined;
      return more;
    },
  };
}
