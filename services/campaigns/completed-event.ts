// `campaign_completed` (an outcome event, decisions.md "Delivery outcomes and local time"): written in the
// transaction of the write that ended the campaign (sent or failed at its finish; canceled by a cancel or a
// suspension), by that conditional update only, so once per campaign; nothing without a subscriber. The body holds
// no personal data: the campaign's id, name, status and recipient counts as that write sees them.
import type { Transaction } from 'sequelize';
import type { Campaign } from '../../models/Campaign.ts';
import type { ServiceContext } from '../context.ts';
import { recordSummaryEvent } from '../sends/delivery/outcome-events.ts';
import { campaignCounts, type CampaignCounts } from './view.ts';

export interface CampaignCompletedEvent {
  event_id: string;
  event_type: 'campaign_completed';
  timestamp: string;
  campaign: { id: number; name: string; status: Campaign['status']; counts: CampaignCounts };
}

/** In the ending write's transaction (under the account's lock), with the campaign as that write left it. */
export async function recordCampaignCompleted(ctx: Pick<ServiceContext, 'models' | 'nudge' | 'now'>, campaign: Campaign, transaction: Transaction): Promise<void> {
  await recordSummaryEvent<CampaignCompletedEvent>(ctx, campaign.account_id, 'campaign_completed', 'campaign', async (now) => ({
    event_id: crypto.randomUUID(),
    event_type: 'campaign_completed',
    timestamp: now.toISOString(),
    campaign: { id: campaign.id, name: campaign.campaign_name, status: campaign.status, counts: await campaignCounts(ctx, campaign.id, transaction) },
  }), transaction);
}

/** A sample of invented data, for test sends. */
export function sampleCampaignCompleted(now: Date): CampaignCompletedEvent {
  return {
    event_id: crypto.randomUUID(),
    event_type: 'campaign_completed',
    timestamp: now.toISOString(),
    campaign: { id: 1001, name: 'Spring thanks', status: 'sent', counts: { recipients: 3, pending: 0, sent: 2, failed: 1, unknown: 0, skipped: 0, canceled: 0, opened: 1, bounced: 0 } },
  };
}
