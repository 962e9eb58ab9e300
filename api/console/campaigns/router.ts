// A campaign's live figures for its console page's script (web/console/campaign-progress.js polls them every few
// seconds while the campaign is scheduled or sending): status, recipients handled out of all, and the counts.
import { z } from 'zod';
import { findCampaign } from '../../../services/campaigns/campaigns.ts';
import { campaignView } from '../../../services/campaigns/view.ts';
import { CampaignCounts } from '../../campaigns/schema.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { numericId, resource } from '../../schema-helpers.ts';
import { CAMPAIGN_STATUSES } from '../../../models/Campaign.ts';
import { progressOf } from './common.ts';

const Params = z.object({ id: resource('campaign', numericId()) });
const Progress = z.object({
  status: z.enum(CAMPAIGN_STATUSES),
  live: z.boolean().describe('true while scheduled or sending: the figures may still move'),
  done: z.number().int(),
  total: z.number().int(),
  percent: z.number().int(),
  counts: CampaignCounts,
});

export const consoleCampaignRoutes = [
  defineSessionRoute({
    method: 'get',
    role: { area: 'campaigns', level: 'view' },
    path: '/campaigns/:id/progress',
    summary: 'A campaign’s status and recipient counts, for its page’s progress bar',
    params: Params,
    response: Progress,
    async handler({ params }, { services, account }) {
      const view = await campaignView(services, await findCampaign(services, account.id, params.id));
      return progressOf(view.campaign.status, view.counts);
    },
  }),
];
