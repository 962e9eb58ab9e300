// `npm run test:scale` (not part of `npm test`): a 100,000-recipient campaign on a sandbox account, its
// recipients from two appended 50,000-row CSV uploads. Accepted, every email in the sink, no quota used, and
// every workflow history (the campaign's, each run of its fan-out) under Temporal's 10,240-event warning.
import { expect } from 'chai';
import { campaignFanOutWorkflowId, campaignWorkflowId } from '../../workflows/campaign/contract.ts';
import { apiClient, call, expectSuccess, newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';

type Json = Record<string, unknown>;
const HALF = Number(process.env.SCALE_HALF ?? 50_000);
const HISTORY_LIMIT = 10_240;

describe('scale: a 100,000-recipient sandbox campaign', function () {
  // A bound on a stall, not on speed: the campaign must keep sending (no 90 s without a new email sent), however
  // slow the machine. The whole test once fitted in 280 s; a slow day's CI machine sent 88,000 in that time.
  this.timeout(900_000);

  it('is accepted, reaches the sink one email per recipient, uses no quota, and keeps every history small', async () => {
    const started = Date.now();
    const stack = await testStack();
    const owner = await newAccount(stack.models, 'pro');
    const accountId = owner.sandboxAccountId;
    const widget = await insertWidget(stack.models, accountId);
    const ecards = [await insertEcard(stack.models, accountId, widget.id, { name: 'A' }), await insertEcard(stack.models, accountId, widget.id, { name: 'B' })];
    const { ok } = apiClient(stack, owner.sandboxKey);
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Everyone', from_email: 'hr@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: ecards.map((e) => e.id) });
    for (const part of [0, 1]) {
      const csv = ['email,first_name,team', ...Array.from({ length: HALF }, (_, i) => `p${part}-${i}@scale.example.com,P${i},T${i % 7}`)].join('\n');
      const parsed = await ok('POST', '/campaign/uploadCsv', { csvContent: csv });
      expect(parsed).to.deep.include({ total_rows: HALF, valid_rows: HALF });
      const saved = await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: parsed.rows, append: part === 1 });
      expect((saved.counts as Json).recipients).to.equal(HALF * (part + 1));
    }
    const lap = (what: string) => console.log(`    ${what} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
    lap('recipients saved');
    expect((await ok('POST', '/campaign/send', { campaignid: id })).status).to.equal('sending');
    let sent = 0;
    let grewAt = Date.now();
    const progress = setInterval(() => {
      void stack.models.CampaignRecipient.count({ where: { campaign_id: id, status: 'sent' } }).then((n) => {
        if (n > sent) [sent, grewAt] = [n, Date.now()];
        lap(`${n} sent`);
      });
    }, 10_000);
    const stalled = () => Date.now() - grewAt > 90_000;
    const done = await eventually(
      async () => expectSuccess(await call(stack.url, 'GET', `/v2/api/campaign/findOne/id/${id}`, { key: owner.sandboxKey })) as Json,
      (c) => c.status !== 'sending' || stalled(),
      880_000 - (Date.now() - started),
      1000,
    ).finally(() => clearInterval(progress));
    expect(done.status, stalled() ? `no email sent in 90 s (${sent} sent)` : undefined).to.equal('sent');
    expect(done.counts).to.deep.include({ recipients: 2 * HALF, sent: 2 * HALF, pending: 0, failed: 0, unknown: 0 });
    expect(await stack.models.MailSinkMessage.count({ where: { account_id: accountId } })).to.equal(2 * HALF);
    expect(await stack.models.QuotaUsage.count({ where: { account_id: accountId } })).to.equal(0);

    const client = await testClient();
    const workflowId = campaignWorkflowId(accountId, id);
    const sizes: Record<string, number> = {};
    for (const wid of [workflowId, campaignFanOutWorkflowId(accountId, id)]) {
      for await (const run of client.workflow.list({ query: `WorkflowId = '${wid}'` })) {
        sizes[`${wid} ${run.runId}`] = (await client.workflow.getHandle(wid, run.runId).fetchHistory()).events?.length ?? 0;
      }
    }
    console.log(`    ${2 * HALF} recipients in ${((Date.now() - started) / 1000).toFixed(0)} s; history sizes: ${JSON.stringify(Object.values(sizes))}`);
    expect(Object.keys(sizes).length).to.be.at.least(2);
    expect(Object.entries(sizes).filter(([, n]) => n >= HISTORY_LIMIT)).to.deep.equal([]);
  });
});
