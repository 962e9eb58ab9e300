// What the automations area does when others change: it counts the eCards and widgets automations refer to
// ("in use"), takes deleted eCards out of its automations (./ecard-removal.ts), erases a member from them
// (./erasure.ts), and its background pass keeps their Temporal Schedules matching the database.
import { periodicPass } from '../../lib/background.ts';
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { automationEcardRemoval } from './ecard-removal.ts';
import { automationErasure } from './erasure.ts';
import { reconcileAutomationSchedules } from './reconcile.ts';
import { automationsUsageCheck } from './usage.ts';

export function automationsHooks(ctx: ServiceContext): AreaHooks {
  return {
    area: 'automations',
    usage: automationsUsageCheck,
    ecardsRemoved(accountId) {
      const removal = automationEcardRemoval(ctx, accountId);
      return { inTransaction: (removed, transaction) => removal.remove(removed, transaction), afterCommit: () => removal.afterCommit() };
    },
    memberErased(accountId) {
      const erasure = automationErasure(ctx, accountId);
      return { inTransaction: (member, transaction) => erasure.erase(member.id, transaction), afterCommit: () => erasure.afterCommit() };
    },
    background: [
      // Their Temporal Schedules made to match the database, at the worker's start and then now and again.
      periodicPass(
        {
          name: 'automation schedules',
          run: async () => {
            await reconcileAutomationSchedules(ctx);
            return false;
          },
        },
        ctx.config.automations.reconcileSeconds * 1000,
      ),
    ],
  };
}
