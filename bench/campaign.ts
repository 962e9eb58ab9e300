// P4: a campaign's recipients per second, end to end (workflow, fan-out, batches on the bulk task queue, prepare,
// claims, the worker process's SMTP pool), against a bare nodemailer pool of the same size sending as many rendered
// messages to the same SMTP server (in the harness's process), rounds alternated. Also the largest workflow
// history the campaigns made.
import { createAccount } from '../services/accounts.ts';
import { saveCampaign } from '../services/campaigns/campaigns.ts';
import { saveCampaignEcards } from '../services/campaigns/ecards.ts';
import { saveRecipients } from '../services/campaigns/recipients.ts';
import { campaignFanOutWorkflowId, campaignWorkflowId } from '../workflows/campaign/contract.ts';
import { alternatedRounds, bareNodemailerRound, benchEcard, sendCampaignToEnd, type Pair } from './harness.ts';
import type { BenchContext } from './stack.ts';

export const campaignPair: Pair<BenchContext> = {
  name: 'p4-campaign',
  async run(ctx) {
    const { models, services, client, settings, smtp, smtpPoolSize } = ctx;
    const recipients = settings.quick ? 500 : 10_000;
    const warmup = Math.max(100, recipients / 20);
    const { accountId } = await createAccount(ctx, { name: 'Bench P4', ownerEmail: `bench-campaign-${Date.now()}@example.com`, plan: 'enterprise' });
    const ecard = await benchEcard(models, accountId, 'Hi {{first_name}}');
    const historySizes: number[] = [];
    let sequence = 0;

    const campaignRound = async (warm: boolean) => {
      const n = warm ? warmup : recipients;
      const round = ++sequence;
      const campaign = await saveCampaign(services, accountId, undefined, { campaign_name: `Bench ${round}`, from_name: 'HR', from_email: 'hr@example.com' });
      await saveCampaignEcards(services, accountId, campaign.id, [ecard.id]);
      const rows = Array.from({ length: n }, (_, i) => ({ email: `r${round}-${i}@bench.example.com`, first_name: `R${i}`, last_name: 'Bench' }));
      await saveRecipients(services, accountId, campaign.id, { directoryMemberIds: [], csvRecipients: rows, append: false });
      const seconds = await sendCampaignToEnd(ctx, smtp, { accountId, id: campaign.id, recipients: n });
      for (const id of [campaignWorkflowId(accountId, campaign.id), campaignFanOutWorkflowId(accountId, campaign.id)]) {
        for await (const run of client.workflow.list({ query: `WorkflowId = '${id}'` })) {
          historySizes.push((await client.workflow.getHandle(id, run.runId).fetchHistory()).events?.length ?? 0);
        }
      }
      return n / seconds;
    };
    const bareRound = (warm: boolean) => bareNodemailerRound(smtp, warm ? warmup : recipients, smtpPoolSize, String(++sequence));
    const figures = await alternatedRounds('P4', { name: 'campaign', round: campaignRound }, { name: 'bare nodemailer pool', round: bareRound }, settings, 'messages/s');
    return [{
      name: 'p4-campaign', compares: `${recipients}-recipient campaign vs bare nodemailer pool (${smtpPoolSize} connections)`, target: '≥ 0.2', unit: 'messages/s', ...figures,
      notes: { recipients, smtpPoolSize, largestHistoryEvents: Math.max(...historySizes) },
    }];
  },
};
