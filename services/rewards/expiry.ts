// The daily expiry (workflows/gift-expiry/workflow.ts, on the `gift-expiry` Temporal Schedule): fulfilled orders still
// unclaimed at their expires_at (fulfilment + claim_expiry_days) become `expired`, and their claim page answers 410.
// Batches of ids, each moved by a conditional UPDATE: a claim committed meanwhile wins, and any number of runs at
// once (a trigger beside the Schedule's own) move each order once.
import { Op } from 'sequelize';
import type { ServiceContext } from '../context.ts';

const BATCH = 500;

/** Moves every due order; returns how many this run moved. */
export async function expireGiftOrders(ctx: Pick<ServiceContext, 'models' | 'now'>, options: { batchSize?: number } = {}): Promise<number> {
  const { GiftOrder } = ctx.models;
  const batchSize = options.batchSize ?? BATCH;
  const now = ctx.now();
  const due = { claim_status: 'unclaimed', fulfillment_status: 'fulfilled', expires_at: { [Op.lte]: now } } as const;
  let moved = 0;
  for (let after = 0; ; ) {
    const ids = (await GiftOrder.findAll({ attributes: ['id'], where: { ...due, id: { [Op.gt]: after } }, order: [['id', 'ASC']], limit: batchSize, raw: true })).map((r) => r.id);
    if (ids.length === 0) return moved;
    const [count] = await GiftOrder.update({ claim_status: 'expired' }, { where: { ...due, id: ids } });
    moved += count;
    after = ids[ids.length - 1]!;
    if (ids.length < batchSize) return moved;
  }
}
