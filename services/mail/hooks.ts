// What the mail area runs in the background: the service's own emails (owner notices) leave the queue.
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { drainMailQueue } from './queue.ts';

export const mailHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'mail',
  background: [{ name: 'mail queue', run: () => drainMailQueue(ctx) }],
});
