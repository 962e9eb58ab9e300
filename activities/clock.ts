// The service clock for workflows' waits (workflows/shared/sleep-until.ts): how long until an instant, read fresh.
import type { ServiceContext } from '../services/context.ts';

export function createClockActivities(ctx: ServiceContext) {
  return {
    async clockRemainingMs({ untilMs }: { untilMs: number }): Promise<number> {
      const now = await ctx.clock.read();
      return Math.max(0, untilMs - now.getTime());
    },
  };
}
