// `npm run bench` (gift cards): a gift campaign's recipients per second (manual codes: each recipient's order and
// code given in its batch's prepare transaction, a claim link made at each hand-off) as a ratio to the same
// campaign without gifts, rounds alternated in one run against the same in-process SMTP server. Settings:
// BENCH_GIFT_RECIPIENTS (default 1,000), BENCH_ROUNDS (default 3), SMTP_POOL_SIZE (default 5), DATABASE_URL
// (default: a fresh SQLite file).
import { randomBytes } from 'node:crypto';
import { createAccount } from '../services/accounts.ts';
import { saveCampaign } from '../services/campaigns/campaigns.ts';
import { saveCampaignEcards } from '../services/campaigns/ecards.ts';
import { saveRecipients } from '../services/campaigns/recipients.ts';
import { issueToken } from '../services/confirmation-tokens.ts';
import { addCodes } from '../services/rewards/codes.ts';
import { benchEcard, benchStack, countingSmtp, sendCampaignToEnd } from './harness.ts';

const recipients = Number(process.env.BENCH_GIFT_RECIPIENTS ?? 1_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const poolSize = Number(process.env.SMTP_POOL_SIZE ?? 5);

const smtp = await countingSmtp();
const bench = await benchStack({
  SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  SMTP_POOL_SIZE: String(poolSize),
  REWARDS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
});
const { config, models, services } = bench;
const { accountId } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-gift-${Date.now()}@example.com`, plan: 'enterprise' });
const ecard = await benchEcard(models, accountId, 'Hi {{first_name}}');
// No spend rules: the bench measures the gift work, not a refusal.
let sequence = 0;

/** One campaign from `send` to `sent`, with or without a 25.00 manual gift per recipient; recipients per second. */
async function campaignRound(gift: boolean): Promise<number> {
  const round = ++sequence;
  const campaign = await saveCampaign(services, accountId, undefined, {
    campaign_name: `Bench ${round}`,
    from_name: 'HR',
    from_email: 'hr@example.com',
    ...(gift ? { gift_card_enabled: true, gift_card: { product_id: 'manual:Bench:25', amount: 25 } } : {}),
  });
  await saveCampaignEcards(services, accountId, campaign.id, [ecard.id]);
  const rows = Array.from({ length: recipients }, (_, i) => ({ email: `g${round}-${i}@bench.example.com`, first_name: `R${i}`, last_name: 'Bench' }));
  await saveRecipients(services, accountId, campaign.id, { directoryMemberIds: [], csvRecipients: rows, append: false });
  let token: string | undefined;
  if (gift) {
    const codes = Array.from({ length: recipients }, (_, i) => `BENCH-${round}-${i}-${randomBytes(4).toString('hex')}`).join('\n');
    await addCodes(services, accountId, { brand: 'Bench', denominationCents: 2500, text: codes });
    token = (await issueToken(models, { accountId, purpose: 'gc_campaign_send', resourceId: String(campaign.id), now: new Date() })).token;
  }
  const seconds = await sendCampaignToEnd(bench, smtp, { accountId, id: campaign.id, recipients, token });
  if (gift) {
    const fulfilled = await models.GiftOrder.count({ where: { campaign_id: campaign.id, fulfillment_status: 'fulfilled' } });
    if (fulfilled !== recipients) throw new Error(`campaign ${campaign.id}: ${fulfilled} gifts fulfilled for ${recipients} recipients`);
  }
  return recipients / seconds;
}

console.log(`database ${config.database.dialect}, ${rounds} rounds of ${recipients} recipients, SMTP pool of ${poolSize}`);
const totals = { plain: 0, gift: 0 };
for (let round = 1; round <= rounds; round++) {
  const plain = await campaignRound(false);
  const gift = await campaignRound(true);
  totals.plain += plain;
  totals.gift += gift;
  console.log(`round ${round}: campaign without gifts ${plain.toFixed(0)} recipients/s, with gifts ${gift.toFixed(0)} recipients/s, ratio ${(gift / plain).toFixed(2)}`);
}
console.log(`gift campaign / campaign without gifts throughput: ${(totals.gift / totals.plain).toFixed(2)}`);
await bench.close();
await smtp.close();
