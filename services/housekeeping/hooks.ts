// What housekeeping runs in the background: expired console sessions, old sign-in slots and idempotency keys, the
// public widget's spent verification rows, old abuse log and send windows pruned daily (PRUNE_INTERVAL_SECONDS) and
// at the start; thumbnails of older uploads made in batches.
import { periodicPass } from '../../lib/background.ts';
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { pruneExpired } from './prune.ts';
import { backfillThumbnails } from '../thumbnail-backfill.ts';

/** Uploads get their thumbnail at once; the pass is for older ones (and a store that failed), so hourly is plenty. */
const THUMBNAIL_PASS_MS = 60 * 60 * 1000;

export const housekeepingHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'housekeeping',
  background: [
    periodicPass(
      {
        name: 'prune',
        run: async () => {
          const pruned = await pruneExpired(ctx);
          if (Object.values(pruned).some((n) => n > 0)) ctx.logger.info({ pruned }, 'expired rows pruned');
          return false;
        },
      },
      ctx.config.pruneIntervalSeconds * 1000,
    ),
    periodicPass({ name: 'thumbnails', run: () => backfillThumbnails(ctx) }, THUMBNAIL_PASS_MS),
  ],
});
