// Rewards activities: thin wrappers over services/rewards. Inputs and results are ids and counts only.
import type { ServiceContext } from '../services/context.ts';
import { expireGiftOrders } from '../services/rewards/expiry.ts';

export function createRewardsActivities(ctx: ServiceContext) {
  return {
    /** The daily expiry's one step: how many orders it moved to `expired`. */
    expireGiftOrders: (): Promise<number> => expireGiftOrders(ctx),
  };
}
