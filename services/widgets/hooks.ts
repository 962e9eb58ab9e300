// What the public widget area does when others change: an erased member's verification rows (its address, asked
// for on any widget of the account) go with it, as a stranger's do when its address is erased. Its counters and abuse log hold no personal data.
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { eraseVerifications } from './public/erasure.ts';

export const widgetHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'widget',
  memberErased: (accountId) => ({
    inTransaction: async (member, transaction) => {
      await eraseVerifications(ctx, accountId, member.email, transaction);
    },
  }),
  addressErased: (accountId) => ({
    inTransaction: async (address, transaction) => {
      await eraseVerifications(ctx, accountId, address.email, transaction);
    },
  }),
});
