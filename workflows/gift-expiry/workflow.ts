// The daily gift expiry, started by the service's one `gift-expiry` Schedule (./lifecycle.ts):
// a single activity that moves due unclaimed orders to `expired`. Its history holds a count, never an order's data.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import type { GiftExpiryResult } from './contract.ts';

// The activity is a run of conditional UPDATEs: safe to repeat after a worker or database failure.
const { expireGiftOrders } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export async function giftExpiryWorkflow(): Promise<GiftExpiryResult> {
  return { expired: await expireGiftOrders() };
}
