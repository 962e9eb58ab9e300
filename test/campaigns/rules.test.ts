// Campaign rules around a running send: quota across a month boundary, cancel and suspension mid-send, sandbox,
// erasure, other accounts' ids on every route, and the state each move and edit needs.
import { WorkflowNotFoundError } from '@temporalio/client';
import { expect } from 'chai';
import { startWorker } from '../../app/runtime.ts';
import { campaignWorkflowId } from '../../workflows/campaign/contract.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { seedMembers } from '../helpers/directory.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver } from '../helpers/receiver.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { extraApp, testConfig, testServices, testStack, type ExtraApp, type TestStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';

type Json = Record<string, unknown>;

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

describe('campaigns: quota, cancel, suspension, sandbox, erasure, ownership, states', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  // An API and worker of their own: five emails a month on the free plan, batches of 50 one at a time.
  let app: ExtraApp;
  let account: TestAccount;
  let ecardId: number;
  let domain: string;
  let counter = 0;

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
    const env = { TEMPORAL_TASK_QUEUE: `cardsvc-rules-${process.pid}`, BULK_BATCH_SIZE: '50', BULK_CONCURRENCY: '1', PLAN_EMAILS: 'free=5,pro=5000,enterprise=100000' };
    const worker = await startWorker(await testServices(await testConfig(env)), { background: false });
    after(() => worker.stop());
    app = await extraApp({ env });
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    domain = `rules${process.pid}-${++counter}.example.com`;
    const widget = await insertWidget(stack.models, account.accountId);
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
  });

  const { api, ok } = apiClient(() => app, () => account.liveKey);
  const rows = (n: number, prefix = 'r') => Array.from({ length: n }, (_, i) => ({ email: `${prefix}${i}@${domain}`, first_name: `R${i}` }));
  const ready = async (recipients: number, key = account.liveKey, ecard = ecardId) => {
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Rules', from_email: 'hr@example.com' } }, key)).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard] }, key);
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: rows(recipients) }, key);
    return id;
  };
  const findOne = (id: number, key = account.liveKey) => ok('GET', `/campaign/findOne/id/${id}`, undefined, key);
  const settled = (id: number) => eventually(() => findOne(id), (c) => (c.counts as Json).pending === 0 && c.status !== 'sending', 60_000, 100);
  const usage = async (accountId: number) =>
    Object.fromEntries((await stack.models.QuotaUsage.findAll({ where: { account_id: accountId } })).filter((r) => r.used > 0).map((r) => [r.month, r.used]));
  const noWorkflow = async (accountId: number, id: number) => {
    const described = await (await testClient()).workflow.getHandle(campaignWorkflowId(accountId, id)).describe().then(() => null, (err: unknown) => err);
    expect(described).to.be.instanceOf(WorkflowNotFoundError);
  };

  it('quota: reserved in the send time\'s month; a reschedule moves it and may be refused; unschedule gives it back', async () => {
    const free = await newAccount(stack.models, 'free');
    const widget = await insertWidget(stack.models, free.accountId);
    const ecard = await insertEcard(stack.models, free.accountId, widget.id);
    const id = await ready(3, free.liveKey, ecard.id);
    const soon = new Date(Math.ceil((Date.now() + 3600_000) / 1000) * 1000);
    const thisMonth = monthOf(soon);
    const next = new Date(Date.UTC(soon.getUTCFullYear(), soon.getUTCMonth() + 1, 10, 9, 0, 0));
    const nextMonth = monthOf(next);
    await stack.models.QuotaUsage.create({ account_id: free.accountId, month: thisMonth, used: 4 });
    const at = (d: Date) => ({ campaignid: id, scheduled_at: d.toISOString(), scheduled_timezone: 'Europe/Paris' });

    const refused = await api('POST', '/campaign/schedule', at(soon), free.liveKey);
    expectFailure(refused, 403, 'wouldexceedlimit');
    expect(refused.body).to.deep.include({ needed: 3, remaining: 1 });
    await noWorkflow(free.accountId, id);
    expect((await ok('POST', '/campaign/schedule', at(next), free.liveKey)).status).to.equal('scheduled');
    expect(await usage(free.accountId)).to.deep.equal({ [thisMonth]: 4, [nextMonth]: 3 });

    // Back into the full month: refused, and the campaign keeps its time and its reservation.
    expectFailure(await api('POST', '/campaign/schedule', at(soon), free.liveKey), 403, 'wouldexceedlimit');
    expect((await findOne(id, free.liveKey)).scheduled_at).to.equal(next.toISOString());
    expect(await usage(free.accountId)).to.deep.equal({ [thisMonth]: 4, [nextMonth]: 3 });

    await stack.models.QuotaUsage.update({ used: 2 }, { where: { account_id: free.accountId, month: thisMonth } });
    expect((await ok('POST', '/campaign/schedule', at(soon), free.liveKey)).scheduled_at).to.equal(soon.toISOString());
    expect(await usage(free.accountId)).to.deep.equal({ [thisMonth]: 5 });
    await ok('POST', '/campaign/unschedule', { campaignid: id }, free.liveKey);
    expect(await usage(free.accountId)).to.deep.equal({ [thisMonth]: 2 });
  });

  it('cancel mid-send: claimed emails finish, the rest end canceled with no email and their quota back', async () => {
    const id = await ready(300);
    let stopped: Promise<Json> | undefined;
    const off = smtp.onMessage((mail) => {
      if (!stopped && mail.to[0]?.endsWith(`@${domain}`)) stopped = ok('POST', '/campaign/cancel', { campaignid: id });
    });
    try {
      await ok('POST', '/campaign/send', { campaignid: id });
      await eventually(async () => stopped, (s) => s !== undefined, 30_000);
      expect((await stopped!).status).to.equal('canceled');
      const done = await settled(id);
      const counts = done.counts as Record<string, number>;
      expect(done.status).to.equal('canceled');
      expect(counts.canceled).to.be.at.least(200);
      expect(counts.sent! + counts.unknown! + counts.canceled!).to.equal(300);
      const canceled = await stack.models.CampaignRecipient.findAll({ where: { campaign_id: id, status: 'canceled' } });
      expect(canceled.filter((r) => smtp.to(r.email).length > 0)).to.deep.equal([]);
      expect(smtp.messages.filter((m) => m.to[0]?.endsWith(`@${domain}`))).to.have.length(counts.sent! + counts.unknown!);
      expect(Object.values(await usage(account.accountId))).to.deep.equal([counts.sent! + counts.unknown!]);
    } finally {
      off();
    }
  });

  it('suspended sending refuses schedule and send (403 spammer) and stops a running campaign: one campaign_completed, canceled, with its counts', async () => {
    const receiver = await testReceiver();
    const hook = `/rules-suspended-${process.pid}-${counter}`;
    await ok('POST', '/pub/team-member-actions/subscribe', { event_type: 'campaign_completed', hookUrl: `${receiver.url}${hook}` });
    const running = await ready(300);
    const waiting = await ready(2);
    const off = smtp.onMessage((mail) => {
      if (mail.to[0]?.endsWith(`@${domain}`)) void stack.models.SendSuspension.upsert({ account_id: account.accountId, created_at: new Date() });
    });
    try {
      await ok('POST', '/campaign/send', { campaignid: running });
      const done = await settled(running);
      expect(done.status).to.equal('canceled');
      const counts = done.counts as Record<string, number>;
      // The batch that was sending finishes; the next ones find the suspension.
      expect(counts.canceled).to.be.at.least(200);
      expect(await stack.models.CampaignRecipient.count({ where: { campaign_id: running, status: 'canceled', reason: 'sending suspended' } })).to.equal(counts.canceled);
      // The write that canceled it announced it once, with the counts findOne gives once every batch has ended.
      const delivered = await eventually(async () => receiver.at(hook), (r) => r.length > 0, 30_000, 100);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.at(hook)).to.have.length(1);
      expect((JSON.parse(delivered[0]!.body) as { campaign: Json }).campaign).to.deep.equal({ id: running, name: 'Rules', status: 'canceled', counts: done.counts });
    } finally {
      off();
    }
    expectFailure(await api('POST', '/campaign/send', { campaignid: waiting }), 403, 'spammer');
    const later = new Date(Date.now() + 3600_000).toISOString();
    expectFailure(await api('POST', '/campaign/schedule', { campaignid: waiting, scheduled_at: later, scheduled_timezone: 'UTC' }), 403, 'spammer');
    expect((await findOne(waiting)).status).to.equal('draft');
    await noWorkflow(account.accountId, waiting);
  });

  it('a sandbox campaign goes to the mail sink and uses no quota', async () => {
    const widget = await insertWidget(stack.models, account.sandboxAccountId);
    const ecard = await insertEcard(stack.models, account.sandboxAccountId, widget.id);
    const id = await ready(7, account.sandboxKey, ecard.id);
    await ok('POST', '/campaign/send', { campaignid: id }, account.sandboxKey);
    const done = await eventually(() => findOne(id, account.sandboxKey), (c) => c.status === 'sent', 60_000, 100);
    expect(done.counts).to.deep.include({ sent: 7, pending: 0 });
    expect(await stack.models.MailSinkMessage.count({ where: { account_id: account.sandboxAccountId } })).to.equal(7);
    expect(smtp.messages.filter((m) => m.to[0]?.endsWith(`@${domain}`))).to.have.length(0);
    expect(await usage(account.sandboxAccountId)).to.deep.equal({});
  });

  it('erasing a member clears it from campaign recipients and the sends made for it', async () => {
    await seedMembers(stack.models, account.accountId, 2, { domain });
    const members = await stack.models.TeamMember.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Members', from_email: 'hr@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] });
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, directoryMemberIds: members.map((m) => m.id) });
    await ok('POST', '/campaign/send', { campaignid: id });
    await eventually(() => findOne(id), (c) => c.status === 'sent', 60_000, 100);
    const erased = members[0]!;
    expectSuccess(await api('POST', '/pub/team-member-actions/delete', { email: erased.email }));
    const row = (await stack.models.CampaignRecipient.findOne({ where: { campaign_id: id, member_id: erased.id } }))!;
    expect(row).to.deep.include({ email: '', name: '', first_name: '', last_name: '', merge_fields: null });
    const sent = (await stack.models.SendRecipient.findOne({ where: { send_id: row.send_id! } }))!;
    expect(sent).to.deep.include({ recipient_email: null, rendered_html: null, rendered_subject: null });
    const listed = expectSuccess(await api('GET', `/campaign/recipients?campaignid=${id}`)) as Json[];
    expect(JSON.stringify(listed)).not.to.include(erased.email);
    expect(JSON.stringify(listed)).to.include(members[1]!.email);
  });

  it('another account\'s campaign is 404 on every route, with nothing changed', async () => {
    const id = await ready(2);
    const other = await newAccount(stack.models, 'pro');
    const later = new Date(Date.now() + 3600_000).toISOString();
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/campaign/findOne/id/${id}`],
      ['GET', `/campaign/recipients?campaignid=${id}`],
      ['POST', '/campaign/save', { campaign: { id, campaign_name: 'Theirs' } }],
      ['POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] }],
      ['POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: rows(1, 'x') }],
      ['POST', '/campaign/updateLocale', { campaignid: id, locale: 'de' }],
      ['POST', '/campaign/schedule', { campaignid: id, scheduled_at: later, scheduled_timezone: 'UTC' }],
      ['POST', '/campaign/send', { campaignid: id }],
      ['POST', '/campaign/unschedule', { campaignid: id }],
      ['POST', '/campaign/cancel', { campaignid: id }],
      ['POST', '/campaign/delete', { id }],
    ];
    for (const [method, path, body] of calls) expectFailure(await api(method, path, body, other.liveKey), 404, 'not_found');
    const after = await findOne(id);
    expect(after).to.deep.include({ status: 'draft', campaign_name: 'Rules', locale: 'en' });
    expect((after.counts as Json).recipients).to.equal(2);
    await noWorkflow(account.accountId, id);
  });

  it('edits need a draft (422 campaign_not_editable); each move needs its states (422 invalid_campaign_state)', async () => {
    const id = await ready(2);
    const later = new Date(Date.now() + 3600_000).toISOString();
    const schedule = { campaignid: id, scheduled_at: later, scheduled_timezone: 'UTC' };
    // A draft cannot be unscheduled or canceled.
    expectFailure(await api('POST', '/campaign/unschedule', { campaignid: id }), 422, 'invalid_campaign_state');
    expectFailure(await api('POST', '/campaign/cancel', { campaignid: id }), 422, 'invalid_campaign_state');
    await noWorkflow(account.accountId, id);
    await ok('POST', '/campaign/schedule', schedule);
    const edits: Array<[string, unknown]> = [
      ['/campaign/save', { campaign: { id, campaign_name: 'Late' } }],
      ['/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] }],
      ['/campaign/saveRecipients', { campaignid: id, csvRecipients: rows(1, 'late') }],
      ['/campaign/updateLocale', { campaignid: id, locale: 'de' }],
    ];
    for (const [path, body] of edits) expectFailure(await api('POST', path, body), 422, 'campaign_not_editable');
    await ok('POST', '/campaign/cancel', { campaignid: id });
    for (const [path, body] of edits) expectFailure(await api('POST', path, body), 422, 'campaign_not_editable');
    for (const [path, body] of [
      ['/campaign/schedule', schedule],
      ['/campaign/send', { campaignid: id }],
      ['/campaign/unschedule', { campaignid: id }],
      ['/campaign/cancel', { campaignid: id }],
    ] as Array<[string, unknown]>) {
      expectFailure(await api('POST', path, body), 422, 'invalid_campaign_state');
    }
    const after = await findOne(id);
    expect(after).to.deep.include({ status: 'canceled', campaign_name: 'Rules', locale: 'en' });
    expect(after.counts).to.deep.include({ recipients: 2, canceled: 2 });
    expect(await usage(account.accountId)).to.deep.equal({});
  });
});
