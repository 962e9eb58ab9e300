// A campaign's emails that SMTP refuses for now (4xx) are settled as a single send's are (services/sends/
// settlement.ts): their claims are freed, the bulk activity's retry sends them, and each recipient gets one email.
import { expect } from 'chai';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('a campaign whose emails SMTP refuses for now', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
    account = await newAccount(stack.models, 'pro');
  });
  const ok = async (path: string, body: unknown) => expectSuccess(await call(stack.url, 'POST', `/v2/api${path}`, { key: account.liveKey, body })) as Record<string, unknown>;

  it('sends each refused email again on the retry, once: every recipient gets one email and ends sent', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const id = (await ok('/campaign/save', { campaign: { campaign_name: 'Later', from_name: 'HR', from_email: 'hr@example.com' } })).id as number;
    await ok('/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] });
    const domain = `refused-${process.pid}.example.com`;
    await ok('/campaign/saveRecipients', { campaignid: id, csvRecipients: Array.from({ length: 6 }, (_, i) => ({ email: `r${i}@${domain}`, name: `R ${i}` })) });
    smtp.failNext(3, 451, '4.3.0 Try again later');
    await ok('/campaign/send', { campaignid: id });
    const campaign = await eventually(() => stack.models.Campaign.findByPk(id), (c) => ['sent', 'failed', 'canceled'].includes(c?.status ?? ''), 90_000, 200);
    expect(campaign!.status).to.equal('sent');
    const received = smtp.messages.filter((m) => m.to.some((t) => t.endsWith(`@${domain}`)));
    expect(received.map((m) => m.to[0]).sort()).to.deep.equal(Array.from({ length: 6 }, (_, i) => `r${i}@${domain}`).sort());
    const recipients = await stack.models.SendRecipient.findAll({ where: { recipient_email: Array.from({ length: 6 }, (_, i) => `r${i}@${domain}`) } });
    expect(recipients.map((r) => r.status)).to.deep.equal(Array(6).fill('sent'));
    expect(recipients.every((r) => r.claimed_at !== null && r.error === null)).to.equal(true);
  });
});
