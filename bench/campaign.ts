// `npm run bench` (fourth part): a campaign's recipients per second, end to end (workflow, fan-out, batches on
// the bulk task queue, prepare, claims, the SMTP pool), against a bare nodemailer pool of the same size sending
// the same number of rendered messages to the same in-process SMTP server, rounds alternated in one run and
// reported as a ratio. Also the largest workflow history the campaigns made. Settings: BENCH_CAMPAIGN_RECIPIENTS
// (default 10,000), BENCH_ROUNDS (default 3), SMTP_POOL_SIZE (default 5), DATABASE_URL (default: a fresh SQLite file).
import { createAccount } from '../services/accounts.ts';
import { saveCampaign } from '../services/campaigns/campaigns.ts';
import { saveCampaignEcards } from '../services/campaigns/ecards.ts';
import { saveRecipients } from '../services/campaigns/recipients.ts';
import { campaignFanOutWorkflowId, campaignWorkflowId } from '../workflows/campaign/ids.ts';
import { bareNodemailerRound, benchEcard, benchStack, countingSmtp, sendCampaignToEnd } from './harness.ts';

const recipients = Number(process.env.BENCH_CAMPAIGN_RECIPIENTS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const poolSize = Number(process.env.SMTP_POOL_SIZE ?? 5);

const smtp = await countingSmtp();

const bench = await benchStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_POOL_SIZE: String(poolSize) });
const { config, models, services } = bench;
const { client } = services.workflows!;

const { accountId } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-campaign-${Date.now()}@example.com`, plan: 'enterprise' });
const ecard = await benchEcard(models, accountId, 'Hi {{first_name}}');

const historySizes: number[] = [];
let sequence = 0;

/** One campaign of `recipients` CSV rows, from `send` to `sent`; recipients per second. */
async function campaignRound(): Promise<number> {
  const round = ++sequence;
  const campaign = await saveCampaign(services, accountId, undefined, { campaign_name: `Bench ${round}`, from_name: 'HR', from_email: 'hr@example.com' });
  await saveCampaignEcards(services, accountId, campaign.id, [ecard.id]);
  const rows = Array.from({ length: recipients }, (_, i) => ({ email: `r${round}-${i}@bench.example.com`, first_name: `R${i}`, last_name: 'Bench' }));
  await saveRecipients(services, accountId, campaign.id, { directoryMemberIds: [], csvRecipients: rows, append: false });
  const seconds = await sendCampaignToEnd(bench, smtp, { accountId, id: campaign.id, recipients });
  const workflowId = campaignWorkflowId(accountId, campaign.id);
  for (const id of [workflowId, campaignFanOutWorkflowId(accountId, campaign.id)]) {
    for await (const run of client.workflow.list({ query: `WorkflowId = '${id}'` })) {
      historySizes.push((await client.workflow.getHandle(id, run.runId).fetchHistory()).events?.length ?? 0);
    }
  }
  return recipients / seconds;
}

console.log(`database ${config.database.dialect}, ${rounds} rounds of ${recipients} recipients, SMTP pool of ${poolSize}`);
const totals = { bare: 0, campaign: 0 };
for (let round = 1; round <= rounds; round++) {
  const bare = await bareNodemailerRound(smtp, recipients, poolSize, String(++sequence));
  const campaign = await campaignRound();
  totals.bare += bare;
  totals.campaign += campaign;
  console.log(`round ${round}: bare pool ${bare.toFixed(0)} messages/s, campaign ${campaign.toFixed(0)} recipients/s, ratio ${(campaign / bare).toFixed(2)}`);
}
console.log(`campaign / bare nodemailer pool throughput: ${(totals.campaign / totals.bare).toFixed(2)}; largest workflow history: ${Math.max(...historySizes)} events`);
await bench.close();
await smtp.close();
