// What the mail area runs in the background: the service's own emails (owner notices) leave the queue; an erased
// stranger's address leaves them (./erasure.ts).
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { eraseAddressFromMail } from './erasure.ts';
import { drainMailQueue } from './queue.ts';

export const mailHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'mail',
  addressErased: (accountId) => ({
    inTransaction: (address, transaction) => eraseAddressFromMail(ctx, accountId, address.email, ctx.now(), transaction),
  }),
  background: [{ name: 'mail queue', run: () => drainMailQueue(ctx) }],
});
