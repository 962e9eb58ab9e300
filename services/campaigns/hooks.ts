// What the campaigns area does when others change: it counts the eCards and widgets campaigns use ("in use"),
// redacts an erased member's recipient rows, and its background pass wakes scheduled or sending campaigns whose
// workflow wake never arrived.
import type { AreaHooks } from '../hooks.ts';
import type { ServiceContext } from '../context.ts';
import { eraseCampaignAddress, eraseCampaignRecipient } from './recipients.ts';
import { wakeUnstartedCampaigns } from './run.ts';
import { campaignsUsageCheck } from './usage.ts';

export const campaignsHooks = (ctx: ServiceContext): AreaHooks => ({
  area: 'campaigns',
  usage: campaignsUsageCheck,
  memberErased: (accountId) => ({
    inTransaction: (member, transaction) => eraseCampaignRecipient(ctx, accountId, member.id, transaction),
  }),
  addressErased: (accountId) => ({
    inTransaction: (address, transaction) => eraseCampaignAddress(ctx, accountId, address.email, transaction),
  }),
  background: [{ name: 'campaign wakes', run: () => wakeUnstartedCampaigns(ctx) }],
});
