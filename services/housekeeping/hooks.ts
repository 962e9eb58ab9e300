// What housekeeping runs in the background: expired console sessions, old sign-in slots and idempotency keys
// pruned daily (PRUNE_INTERVAL_SECONDS) and at the start.
import { periodicPass } from '../../lib/background.ts';
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { pruneExpired } from './prune.ts';

export const housekeepingHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'housekeeping',
  background: [
    periodicPass(
      {
        name: 'prune',
        run: async () => {
          const pruned = await pruneExpired(ctx);
          if (pruned.sessions + pruned.signInSlots + pruned.idempotencyKeys > 0) ctx.logger.info({ pruned }, 'expired rows pruned');
          return false;
        },
      },
      ctx.config.pruneIntervalSeconds * 1000,
    ),
  ],
});
