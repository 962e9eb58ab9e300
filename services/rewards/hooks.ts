// What the rewards area does when others change: it voids and redacts the gift orders of an erased member
// (./erasure.ts), and its background pass makes the service's one daily gift-expiry Schedule.
import { periodicPass } from '../../lib/background.ts';
import { ensureGiftExpirySchedule } from '../../workflows/gift-expiry/lifecycle.ts';
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { eraseGiftRecipient } from './erasure.ts';

export const rewardsHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'rewards',
  memberErased: (accountId) => ({
    inTransaction: async (member, transaction) => {
      await eraseGiftRecipient(ctx, accountId, member, transaction);
    },
  }),
  // A stranger's address: the orders made for it by address (no member has id 0).
  addressErased: (accountId) => ({
    inTransaction: async (address, transaction) => {
      await eraseGiftRecipient(ctx, accountId, { id: 0, email: address.email }, transaction);
    },
  }),
  background: [
    // Made at the worker's start (and checked again now and then).
    periodicPass(
      {
        name: 'gift expiry schedule',
        run: async () => {
          if (ctx.workflows) await ensureGiftExpirySchedule(ctx.workflows);
          return false;
        },
      },
      ctx.config.automations.reconcileSeconds * 1000,
    ),
  ],
});
