// Every wait of a workflow for a moment in the service's time (a zone's send time, the end of quiet hours, a wave):
// sleep until an instant, or until a `wake` signal. The remaining time is asked of an activity reading the service
// clock (services/clock.ts), never computed from workflow time, so a test that moves the clock and signals `wake`
// ends the wait with real Temporal timers, and a replay reads the same answers from the history.
import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import { wakeSignal } from './wake.ts';

const { clockRemainingMs } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * A waiter bound to this workflow's `wake` signal: call it once per workflow, before the first wait. It answers
 * `due` once the instant has come; with `stopOnWake` it answers `woken` at the first `wake` instead (a caller whose
 * instant may have changed, such as a rescheduled campaign, then reads it again), else a wake only re-reads the clock.
 */
export function wakeableSleeper(): (untilMs: number, stopOnWake?: boolean) => Promise<'due' | 'woken'> {
  let woken = false;
  setHandler(wakeSignal, () => {
    woken = true;
  });
  return async (untilMs, stopOnWake = false) => {
    for (;;) {
      woken = false;
      const remaining = await clockRemainingMs({ untilMs });
      if (remaining <= 0) return 'due';
      await condition(() => woken, remaining);
      if (woken && stopOnWake) return 'woken';
    }
  };
}
