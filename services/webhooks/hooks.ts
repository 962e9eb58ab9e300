// What the webhooks area runs in the background: committed events become deliveries, and their workflows start; an erased stranger's
// address leaves the events and attempts (./erasure.ts).
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { drainOutbox } from './drain.ts';
import { eraseAddressFromWebhooks } from './erasure.ts';

export const webhooksHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'webhooks',
  addressErased: (accountId) => ({
    inTransaction: (address, transaction) => eraseAddressFromWebhooks(ctx, accountId, address.email, transaction),
  }),
  background: [{ name: 'webhook outbox', run: () => drainOutbox(ctx) }],
});
