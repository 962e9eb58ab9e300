// The per-process send starter: an accept that does not wait for its dispatch (a scheduled send, a widget's email)
// answers right after its commit and hands the send here. Each send's `workflow.start` is sent at once, up to
// STARTS_IN_FLIGHT of them at a time (the rest wait in the queue), and the sends that started since the last mark
// are marked with one UPDATE (./start.ts), so a busy API marks its starts in batches as large as its load, and the
// last send of a burst waits for one start, never for a whole batch ahead of it. The queue is only a shortcut: the
// committed row is the truth, and whatever the starter never starts (the process died, Temporal refused, the
// process closed with sends queued) the worker's "send starts" pass starts after its grace.
import type { SendStarter, ServiceContext, StartableSend } from '../../context.ts';
import { markSendsStarted, startSendWorkflowOf } from './start.ts';

/** `workflow.start` calls in flight at once. */
export const STARTS_IN_FLIGHT = 100;

export function sendStarter(ctx: ServiceContext): SendStarter {
  const queue: StartableSend[] = [];
  const held = new Map<NodeJS.Timeout, StartableSend>();
  const started: number[] = [];
  let inFlight = 0;
  let marking: Promise<void> | undefined;
  let closing = false;
  let closed: Promise<void> | undefined;
  let failedWhileClosing = false;
  let idle: (() => void) | undefined;

  const settledIfIdle = () => {
    if (inFlight === 0 && !marking && queue.length === 0 && held.size === 0) idle?.();
  };

  // One UPDATE for every start that finished since the last one; a start finishing meanwhile goes in the next.
  const mark = () => {
    if (marking || started.length === 0) return;
    marking = (async () => {
      while (started.length > 0) {
        const ids = started.splice(0);
        await markSendsStarted(ctx, ids).catch((err: unknown) => ctx.logger.warn({ err, sends: ids.length }, 'started send workflows not marked (the sweeper marks them)'));
      }
    })().finally(() => {
      marking = undefined;
      settledIfIdle();
    });
  };

  const pump = () => {
    const target = ctx.workflows;
    if (!target) return;
    if (closing && failedWhileClosing && queue.length > 0) {
      ctx.logger.warn({ sends: queue.splice(0).length }, 'send starter closed: the sweeper starts the sends still queued');
    }
    while (queue.length > 0 && inFlight < STARTS_IN_FLIGHT) {
      const send = queue.shift()!;
      inFlight += 1;
      startSendWorkflowOf(ctx, target, send)
        .then(
          () => started.push(send.id),
          (err: unknown) => {
            if (closing) failedWhileClosing = true;
            ctx.logger.warn({ err, sendId: send.send_id }, 'send workflow not started yet (the sweeper starts it)');
          },
        )
        .finally(() => {
          inFlight -= 1;
          mark();
          pump();
          settledIfIdle();
        });
    }
  };

  const enqueue = (send: StartableSend) => {
    queue.push(send);
    pump();
  };

  return {
    add(send) {
      if (!ctx.workflows) return ctx.nudge();
      if (closing) return;
      const delay = ctx.config.sendStarterDelayMs;
      if (delay === 0) return enqueue(send);
      // Held back (tests and drills only): closing lets it go at once.
      const timer = setTimeout(() => {
        held.delete(timer);
        enqueue(send);
      }, delay);
      held.set(timer, send);
    },
    close() {
      closed ??= drain();
      return closed;
    },
  };

  // Closing, once: a second close waits for the first (its `idle` would otherwise replace the first's).
  async function drain(): Promise<void> {
    closing = true;
    // The held sends go at once, in the order they came.
    for (const [timer, send] of held) {
      clearTimeout(timer);
      queue.push(send);
    }
    held.clear();
    const done = new Promise<void>((resolve) => (idle = resolve));
    pump();
    settledIfIdle();
    await done;
  }
}
