// Deleting a campaign (the console's delete; the key API answers 403 console_only): a scheduled or sending campaign
// is canceled first (quota and gifts back, claimed recipients finish), then the campaign, its recipients and its
// backing widget with the eCard copies go in one transaction. Its sends stay: each renders from its own snapshot.
import { ApiError, invalidCampaignState, notFound } from '../../lib/errors.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { findCampaign } from './campaigns.ts';
import { cancelCampaign } from './moves.ts';

export async function deleteCampaign(ctx: ServiceContext, accountId: number, id: number): Promise<void> {
  const campaign = await findCampaign(ctx, accountId, id);
  if (campaign.status === 'scheduled' || campaign.status === 'sending') {
    // A campaign that ends (sent) between the read above and the cancel is refused by the cancel: nothing is left
    // to stop, so the delete goes on; the transaction below re-reads the state either way.
    await cancelCampaign(ctx, accountId, id).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.code === 'invalid_campaign_state')) throw err;
    });
  }
  await accountTransaction(ctx, accountId, async (transaction) => {
    const found = await ctx.models.Campaign.findOne({ where: { id, account_id: accountId }, transaction });
    if (!found) throw notFound(`No campaign with id ${id}`);
    // Raced by a schedule between the cancel and this transaction: refused rather than deleted under a workflow.
    if (found.status === 'scheduled' || found.status === 'sending') {
      throw invalidCampaignState(`Campaign ${id} is ${found.status} again; try the delete again`);
    }
    await ctx.models.CampaignRecipient.destroy({ where: { campaign_id: id }, transaction });
    await ctx.models.Campaign.destroy({ where: { id, account_id: accountId }, transaction });
    await ctx.models.Ecard.destroy({ where: { widget_id: found.widget_id, account_id: accountId }, transaction });
    await ctx.models.Widget.destroy({ where: { id: found.widget_id, account_id: accountId }, transaction });
  });
  // The campaign's workflow, if one still runs, reads the row as gone and ends.
}
