// What the sends area does when others change: it counts the eCards and widgets sends used ("in use"), and its
// erases a stranger's address from its sends (./erase-address.ts), and its background passes start the workflows of committed sends whose start never happened
// and announce the outcome marks a crashed bulk batch left behind (./outcome-marks.ts).
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { eraseAddressFromSends } from './erasure/erase-address.ts';
import { sweepOutcomeMarks } from './delivery/outcome-marks.ts';
import { startUnstartedSends } from './accept/start.ts';
import { sendsUsageCheck } from './log/usage.ts';

export const sendsHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'sends',
  usage: sendsUsageCheck,
  addressErased: (accountId) => ({
    inTransaction: (address, transaction) => eraseAddressFromSends(ctx, accountId, address.email, ctx.now(), transaction),
  }),
  background: [
    { name: 'send starts', run: () => startUnstartedSends(ctx) },
    { name: 'outcome marks', run: () => sweepOutcomeMarks(ctx) },
  ],
});
