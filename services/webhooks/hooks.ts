// What the webhooks area runs in the background: committed events become deliveries, and their workflows start.
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { drainOutbox } from './drain.ts';

export const webhooksHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'webhooks',
  background: [{ name: 'webhook outbox', run: () => drainOutbox(ctx) }],
});
