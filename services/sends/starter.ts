// The per-process send starter: an accept that does not wait for its dispatch (a scheduled send, a widget's email)
// answers right after its commit and hands the send here; the starter starts the queued sends in batches, every
// start of a batch in flight at once and then one UPDATE marking them (./start.ts), as fast as Temporal takes them.
// The queue is only a shortcut: the committed row is the truth, and whatever the starter never starts (the process
// died, Temporal refused, the process closed with sends queued) the worker's "send starts" pass starts after its grace.
import { setTimeout as sleep } from 'node:timers/promises';
import type { SendStarter, ServiceContext, StartableSend } from '../context.ts';
import { startSendWorkflows } from './start.ts';

/** Starts in flight at once (and rows in the UPDATE that marks them). */
export const STARTER_BATCH = 100;

export function sendStarter(ctx: ServiceContext): SendStarter {
  const queue: StartableSend[] = [];
  let draining: Promise<void> | undefined;
  let closing = false;
  // Ends the hold-back of the batch being held when the process closes.
  const holdBack = new AbortController();

  const drain = async () => {
    const target = ctx.workflows;
    while (queue.length > 0 && target) {
      if (!closing && ctx.config.sendStarterDelayMs > 0) await sleep(ctx.config.sendStarterDelayMs, undefined, { signal: holdBack.signal }).catch(() => undefined);
      const batch = queue.splice(0, STARTER_BATCH);
      const started = await startSendWorkflows(ctx, target, batch).catch((err: unknown) => {
        ctx.logger.warn({ err, sends: batch.length }, 'started send workflows not marked (the sweeper marks them)');
        return batch.length;
      });
      if (closing && started < batch.length) break;
    }
    if (closing && queue.length > 0) ctx.logger.warn({ sends: queue.splice(0).length }, 'send starter closed: the sweeper starts the sends still queued');
  };

  // One drain at a time; a send added while the last one finishes starts the next.
  const kick = () => {
    if (draining || queue.length === 0) return;
    draining = drain().finally(() => {
      draining = undefined;
      if (!closing) kick();
    });
  };

  return {
    add(send) {
      if (!ctx.workflows) return ctx.nudge();
      if (closing) return;
      queue.push(send);
      kick();
    },
    async close() {
      closing = true;
      holdBack.abort();
      kick();
      await draining;
    },
  };
}
