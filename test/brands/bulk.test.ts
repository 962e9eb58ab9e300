import { expect } from 'chai';
import { apiClient, newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack } from '../helpers/stack.ts';
import { loadSnapshot } from '../../services/sends/accept/snapshot.ts';


describe('brands: bulk sends', function () {
  this.timeout(90_000);

  it("a campaign's sends keep the brand of the eCard as it was when they were prepared", async () => {
    const stack = await testStack();
    await testSmtpServer();
    const account = await newAccount(stack.models, 'pro');
    const { ok } = apiClient(() => stack, () => account.liveKey);
    const brandId = (await ok('POST', '/brand/save', { brand: { name: 'Campaign brand', accent_color: '#0a0' } })).id as number;
    const ecard = await insertEcard(stack.models, account.accountId, (await insertWidget(stack.models, account.accountId)).id);
    await ok('POST', '/ecard/save', { myEcard: { id: ecard.id, ecardbrandid: brandId } });
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Branded', from_name: 'HR', from_email: 'hr@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] });
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: [{ email: `brand-${process.pid}@bulk.example.com`, first_name: 'Bea' }] });
    await ok('POST', '/campaign/send', { campaignid: id });
    const send = await eventually(() => stack.models.Send.findOne({ where: { origin: 'campaign', origin_id: id } }), (s) => s !== null, 60_000);
    await ok('POST', '/brand/save', { brand: { id: brandId, name: 'Renamed later' } });
    const brand = (await loadSnapshot(stack, send!.id))!.brand!;
    expect(brand).to.deep.include({ id: brandId, name: 'Campaign brand', accent_color: '#0a0' });
  });
});
