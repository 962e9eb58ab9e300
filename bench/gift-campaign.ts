// P9: a gift campaign's recipients per second (manual codes: each recipient's order and code given in its batch's
// prepare transaction, a claim link made at each hand-off) as a ratio to the same campaign without gifts, rounds
// alternated, both through the worker process to the same SMTP server.
import { randomBytes } from 'node:crypto';
import { createAccount } from '../services/accounts.ts';
import { saveCampaign } from '../services/campaigns/campaigns.ts';
import { saveCampaignEcards } from '../services/campaigns/ecards.ts';
import { saveRecipients } from '../services/campaigns/recipients.ts';
import { issueToken } from '../services/confirmation-tokens.ts';
import { addCodes } from '../services/rewards/codes.ts';
import { alternatedRounds, benchEcard, sendCampaignToEnd, type Pair } from './harness.ts';
import type { BenchContext } from './stack.ts';

export const giftPair: Pair<BenchContext> = {
  name: 'p9-gift-campaign',
  async run(ctx) {
    const { models, services, settings, smtp } = ctx;
    const recipients = settings.quick ? 200 : 1000;
    const warmup = Math.max(50, recipients / 10);
    const { accountId } = await createAccount(ctx, { name: 'Bench P9', ownerEmail: `bench-gift-${Date.now()}@example.com`, plan: 'enterprise' });
    const ecard = await benchEcard(models, accountId, 'Hi {{first_name}}');
    let sequence = 0;

    // One campaign from `send` to `sent`, with or without a 25.00 manual gift per recipient (no spend rules).
    const campaignRound = (gift: boolean) => async (warm: boolean) => {
      const n = warm ? warmup : recipients;
      const round = ++sequence;
      const campaign = await saveCampaign(services, accountId, undefined, {
        campaign_name: `Bench ${round}`, from_name: 'HR', from_email: 'hr@example.com',
        ...(gift ? { gift_card_enabled: true, gift_card: { product_id: 'manual:Bench:25', amount: 25 } } : {}),
      });
      await saveCampaignEcards(services, accountId, campaign.id, [ecard.id]);
      const rows = Array.from({ length: n }, (_, i) => ({ email: `g${round}-${i}@bench.example.com`, first_name: `R${i}`, last_name: 'Bench' }));
      await saveRecipients(services, accountId, campaign.id, { directoryMemberIds: [], csvRecipients: rows, append: false });
      let token: string | undefined;
      if (gift) {
        const codes = Array.from({ length: n }, (_, i) => `BENCH-${round}-${i}-${randomBytes(4).toString('hex')}`).join('\n');
        await addCodes(services, accountId, { brand: 'Bench', denominationCents: 2500, text: codes });
        token = (await issueToken(ctx, { accountId, purpose: 'gc_campaign_send', resourceId: String(campaign.id), now: new Date() })).token;
      }
      const seconds = await sendCampaignToEnd(ctx, smtp, { accountId, id: campaign.id, recipients: n, token });
      if (gift) {
        const fulfilled = await models.GiftOrder.count({ where: { campaign_id: campaign.id, fulfillment_status: 'fulfilled' } });
        if (fulfilled !== n) throw new Error(`P9 campaign ${campaign.id}: ${fulfilled} gifts fulfilled for ${n} recipients`);
      }
      return n / seconds;
    };
    const figures = await alternatedRounds('P9', { name: 'gift campaign', round: campaignRound(true) }, { name: 'campaign without gifts', round: campaignRound(false) }, settings, 'recipients/s');
    return [{ name: 'p9-gift-campaign', compares: `${recipients}-recipient gift campaign vs the same without gifts`, target: '≥ 0.5', unit: 'recipients/s', ...figures, notes: { recipients } }];
  },
};
