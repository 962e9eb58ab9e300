import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { firingZone, insertAutomation } from '../helpers/automations.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { consoleClient, signedInConsole } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

describe('console: deleting campaigns and automations', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let counter = 0;
  before(async () => {
    stack = await testStack();
    await testSmtpServer();
  });

  const { api, ok } = apiClient(() => stack);

  /** A complete draft: one eCard copy, `n` CSV recipients. */
  async function campaign(account: TestAccount, n = 1): Promise<Json> {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const created = await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Spring', from_name: 'HR', from_email: 'hr@example.com' } }, account.liveKey);
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: created.id, ecardIds: [ecard.id] }, account.liveKey);
    const domain = `del${process.pid}-${++counter}.example.com`;
    await ok('POST', '/campaign/saveRecipients', { campaignid: created.id, csvRecipients: Array.from({ length: n }, (_, i) => ({ email: `r${i}@${domain}`, name: `R ${i}` })) }, account.liveKey);
    return ok('GET', `/campaign/findOne/id/${created.id as number}`, undefined, account.liveKey);
  }

  it('deletes a draft campaign with its recipients and backing widget; the key API still answers console_only', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    const draft = await campaign(account, 3);
    const id = draft.id as number;
    expectFailure(await api('POST', '/campaign/delete', { id }, account.liveKey), 403, 'console_only');
    expect(expectSuccess(await client.call('POST', `/campaigns/${id}/delete`))).to.deep.equal({ deleted: [id] });
    expect(await stack.models.Campaign.count({ where: { id } })).to.equal(0);
    expect(await stack.models.CampaignRecipient.count({ where: { campaign_id: id } })).to.equal(0);
    expect(await stack.models.Widget.count({ where: { id: draft.widgetid as number } })).to.equal(0);
    expect(await stack.models.Ecard.count({ where: { widget_id: draft.widgetid as number } })).to.equal(0);
    expectFailure(await api('GET', `/campaign/findOne/id/${id}`, undefined, account.liveKey), 404, 'not_found');
    expectFailure(await client.call('POST', `/campaigns/${id}/delete`), 404, 'not_found');
  });

  it('a scheduled campaign is canceled (quota back) and deleted', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    const id = (await campaign(account, 2)).id as number;
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 19);
    await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: at, scheduled_timezone: 'UTC' }, account.liveKey);
    const used = async () => (await stack.models.QuotaUsage.findAll({ where: { account_id: account.accountId } })).reduce((n, r) => n + r.used, 0);
    expect(await used()).to.equal(2);
    expectSuccess(await client.call('POST', `/campaigns/${id}/delete`));
    expect(await stack.models.Campaign.count({ where: { id } })).to.equal(0);
    expect(await used()).to.equal(0);
  });

  it('a sent campaign\'s sends keep their share pages after the delete', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    const id = (await campaign(account, 2)).id as number;
    await ok('POST', '/campaign/send', { campaignid: id }, account.liveKey);
    const done = await eventually(() => ok('GET', `/campaign/findOne/id/${id}`, undefined, account.liveKey), (c) => c.status === 'sent', 60_000);
    expect(done.status).to.equal('sent');
    const sends = await stack.models.Send.findAll({ where: { account_id: account.accountId, origin: 'campaign', origin_id: id } });
    expect(sends).to.have.length(2);
    expectSuccess(await client.call('POST', `/campaigns/${id}/delete`));
    expect(await stack.models.Send.count({ where: { id: sends.map((s) => s.id) } })).to.equal(2);
    for (const send of sends) {
      const page = await fetch(`${stack.url}/e/${send.stat_vanity_id}`);
      expect(page.status).to.equal(200);
    }
  });

  it('a campaign that ends while its delete reads it (sending, then sent) is still deleted, not refused', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    const id = (await campaign(account, 1)).id as number;
    await ok('POST', '/campaign/send', { campaignid: id }, account.liveKey);
    await eventually(() => ok('GET', `/campaign/findOne/id/${id}`, undefined, account.liveKey), (c) => c.status === 'sent', 60_000);
    // The delete's first read sees the campaign as it was a moment before it ended; the cancel then finds it sent.
    let stale = true;
    const asBeforeItEnded = (found: unknown) => {
      const row = found as { id?: number; status?: string } | null;
      if (stale && row?.id === id) {
        stale = false;
        row.status = 'sending';
      }
    };
    stack.models.Campaign.addHook('afterFind', 'delete-race', asBeforeItEnded);
    try {
      expect(expectSuccess(await client.call('POST', `/campaigns/${id}/delete`))).to.deep.equal({ deleted: [id] });
    } finally {
      stack.models.Campaign.removeHook('afterFind', 'delete-race');
    }
    expect(stale, 'the delete read the campaign').to.equal(false);
    expect(await stack.models.Campaign.count({ where: { id } })).to.equal(0);
  });

  it('deletes an automation; the key API still answers console_only', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const automation = await insertAutomation(stack.models, account.accountId, firingZone(), ecard.id, { enabled: false });
    expectFailure(await api('POST', '/automation/delete', { id: automation.id }, account.liveKey), 403, 'console_only');
    expect(expectSuccess(await client.call('POST', `/automations/${automation.id}/delete`))).to.deep.equal({ deleted: [automation.id] });
    expect(await stack.models.Automation.count({ where: { id: automation.id } })).to.equal(0);
    expect(await stack.models.AutomationEcard.count({ where: { automation_id: automation.id } })).to.equal(0);
    expect(await stack.models.Ecard.count({ where: { id: ecard.id } })).to.equal(1);
  });

  it('another account\'s campaign or automation is 404 and stays; bad ids, no session and no CSRF token are refused', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    const other = await newAccount(stack.models);
    const theirs = (await campaign(other, 1)).id as number;
    const widget = await insertWidget(stack.models, other.accountId);
    const automation = await insertAutomation(stack.models, other.accountId, firingZone(), (await insertEcard(stack.models, other.accountId, widget.id)).id, { enabled: false });
    expectFailure(await client.call('POST', `/campaigns/${theirs}/delete`), 404, 'not_found');
    expectFailure(await client.call('POST', `/automations/${automation.id}/delete`), 404, 'not_found');
    // The sandbox twin is another account too.
    const mine = (await campaign(account, 1)).id as number;
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    expectFailure(await client.call('POST', `/campaigns/${mine}/delete`), 404, 'not_found');
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'live' } }));
    expectFailure(await client.call('POST', `/campaigns/abc/delete`), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', `/campaigns/${mine}/delete`, { csrf: null }), 403, 'csrf_invalid');
    expectFailure(await consoleClient(stack.url).call('POST', `/automations/${automation.id}/delete`), 401, 'session_required');
    expect(await stack.models.Campaign.count({ where: { id: [theirs, mine] } })).to.equal(2);
    expect(await stack.models.CampaignRecipient.count({ where: { campaign_id: theirs } })).to.equal(1);
    expect(await stack.models.Automation.count({ where: { id: automation.id } })).to.equal(1);
  });
});
