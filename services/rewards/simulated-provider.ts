// The simulated provider: persists its orders (unique by external_id), declines amounts ending in .13, answers an
// amount ending in .42 only after the caller's timeout the first time (so the caller retries and finds the same
// order), and charges nothing. Its codes (`SIM-…`) are derived from the order, so the provider keeps none.
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceContext } from '../context.ts';
import { keysOrThrow } from '../../lib/sealing.ts';
import type { GiftProvider } from './provider.ts';

const codeFor = (key: Buffer, externalId: string) => {
  const digits = createHmac('sha256', key).update(`simulated:${externalId}`).digest('hex').toUpperCase().slice(0, 16);
  return `SIM-${digits.match(/.{4}/g)!.join('-')}`;
};

export function simulatedProvider(ctx: Pick<ServiceContext, 'models' | 'config' | 'dataKeys'>): GiftProvider {
  const { models } = ctx;
  return {
    name: 'simulated',
    async buy(request, signal) {
      const cents = request.amountCents % 100;
      await models.SimulatedProviderOrder.bulkCreate(
        [{ external_id: request.externalId, account_id: request.accountId, sku: request.sku, amount_cents: request.amountCents, status: cents === 13 ? 'declined' : 'fulfilled' }],
        { ignoreDuplicates: true },
      );
      const order = await models.SimulatedProviderOrder.findOne({ where: { external_id: request.externalId }, rejectOnEmpty: true });
      if (cents === 42) {
        const [late] = await models.SimulatedProviderOrder.update({ delayed_once: true }, { where: { id: order.id, delayed_once: false } });
        // Past the caller's timeout, once: the order exists, but the caller hears nothing in time.
        if (late) await sleep((ctx.config.rewards.providerTimeoutSeconds + 1) * 1000, undefined, { signal }).catch(() => undefined);
      }
      if (order.status === 'declined') return { status: 'declined', reason: 'declined by the provider (simulated: amounts ending in .13)' };
      if (order.status === 'refunded') return { status: 'declined', reason: 'the provider refunded this order' };
      return { status: 'fulfilled', code: codeFor(keysOrThrow(ctx.dataKeys).current.bytes, request.externalId), pin: null };
    },
    async refund(externalId) {
      await models.SimulatedProviderOrder.update({ status: 'refunded' }, { where: { external_id: externalId, status: 'fulfilled' } });
    },
  };
}
