// A stack whose service clock tests move (TEST_CLOCK): its own task queues, so only its worker answers its waits,
// and the offset back at zero when it starts (the table is shared by the suite's stacks). Its file stops it in
// `after`: left running, its background passes would act on the rest of the suite's rows with a clock hours ahead
// (a sweeper starting other tests' scheduled campaigns early, outcome marks announced as if long overdue).
import { advanceTestClock, resetTestClock } from '../../services/clock.ts';
import { startStack, type TestStack } from './stack.ts';

export interface ClockStack extends TestStack {
  /** Moves the service clock forward for every process on the suite's database (then signal `wake`). */
  advance(ms: number): Promise<void>;
  /** Stops the stack (API, worker, background passes) and sets the offset back to zero. */
  stop(): Promise<void>;
}

let count = 0;

export async function testClockStack(overrides: Record<string, string> = {}): Promise<ClockStack> {
  const queue = `cardsvc-clock-${process.pid}-${++count}`;
  const stack = await startStack({ TEST_CLOCK: 'true', TEMPORAL_TASK_QUEUE: queue, TEMPORAL_BULK_TASK_QUEUE: `${queue}-bulk`, ...overrides });
  await resetTestClock(stack.models.sequelize);
  await stack.services.clock.read();
  return {
    ...stack,
    advance: (ms) => advanceTestClock(stack.models.sequelize, ms),
    stop: async () => {
      await stack.stop();
      await resetTestClock(stack.models.sequelize);
    },
  };
}
