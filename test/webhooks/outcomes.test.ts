// Outcome events (issue 34, item 2; an extension of the spec's subscriptions): ecard_delivered, ecard_opened and
// ecard_failed through the member events' engine, signed, once per recipient and transition, replayable, batched
// up to 100 recipients per delivery; nothing written without a subscriber; subscribing needs sends: view too.
import { expect } from 'chai';
import { sweepOutcomeMarks } from '../../services/sends/delivery/outcome-marks.ts';
import { Op } from 'sequelize';
import { verifySignature } from '../../lib/signing.ts';
import { OUTCOME_EVENT_TYPES } from '../../services/sends/delivery/outcome-events.ts';
import { accountSecret } from '../../services/webhooks/secrets.ts';
import { apiClient, call, expectFailure, expectSuccess, newKey, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { expectEventShape, hookPath, webhookApi, webhookContext } from '../helpers/webhooks.ts';

type Json = Record<string, unknown>;
type Recipient = { sendId: string; name: string | null; email: string | null; status: string; sent_at: string | null; opened_at: string | null; bounced_at: string | null; failure: string | null };
type Outcome = { event_id: string; event_type: string; timestamp: string; send: Json; recipients: Recipient[] };

describe('webhooks: outcome events', function () {
  this.timeout(120_000);
  const ctx = webhookContext();
  let smtp: SmtpTestServer;
  let counter = 0;
  before(async () => {
    smtp = await testSmtpServer();
  });
  const domain = () => `outcome${process.pid}-${++counter}.example.com`;

  async function ecardOf(accountId: number) {
    const widget = await insertWidget(ctx.stack.models, accountId);
    return { widget, ecard: await insertEcard(ctx.stack.models, accountId, widget.id) };
  }

  async function emailSend(account: TestAccount, ecardId: number, to: string[]): Promise<string> {
    const body = { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: to.map((_, i) => `Person ${i + 1}`), recipientEmail: to };
    const res = await call(ctx.stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body });
    expect(res.body.sendId, JSON.stringify(res.body)).to.be.a('string');
    return res.body.sendId as string;
  }

  const bodies = (path: string) => ctx.receiver.at(path).map((r) => JSON.parse(r.body) as Outcome);

  async function expectSigned(path: string) {
    const secret = (await accountSecret(ctx.stack.services, ctx.account.accountId)).secret;
    for (const request of ctx.receiver.at(path)) {
      expect(verifySignature(request.headers['x-svc-signature'] as string, request.body, [secret])).to.equal(true);
      expect(request.headers['user-agent']).to.equal('CardsvcHook');
    }
  }

  it('subscribing to an outcome type needs sends: view as well as webhooks: manage (403 without); member types do not', async () => {
    const url = `${ctx.receiver.url}${hookPath('scope')}`;
    const bare = await newKey(ctx.stack.models, ctx.account.accountId, { webhooks: 'manage' });
    for (const type of OUTCOME_EVENT_TYPES) {
      expectFailure(await webhookApi(ctx.stack, ctx.account, bare.key).api('POST', '/pub/team-member-actions/subscribe', { event_type: type, hookUrl: url }), 403, 'key_out_of_scope');
    }
    expect(await ctx.stack.models.WebhookEndpoint.count({ where: { account_id: ctx.account.accountId } })).to.equal(0);
    expect(await webhookApi(ctx.stack, ctx.account, bare.key).subscribe('team_member_created', url)).to.be.a('number');
    const reader = await newKey(ctx.stack.models, ctx.account.accountId, { webhooks: 'manage', sends: 'view' });
    for (const type of OUTCOME_EVENT_TYPES) expect(await webhookApi(ctx.stack, ctx.account, reader.key).subscribe(type, url)).to.be.a('number');
    expectFailure(await ctx.hooks.api('POST', '/pub/team-member-actions/subscribe', { event_type: 'ecard_nonsense', hookUrl: url }), 400, 'invalid_parameter');
  });

  it('a send delivers ecard_delivered for the recipients the server took and ecard_failed for the refused one, once each, signed', async () => {
    const delivered = hookPath('delivered');
    const failed = hookPath('failed');
    const deliveredId = await ctx.hooks.subscribe('ecard_delivered', `${ctx.receiver.url}${delivered}`);
    const failedId = await ctx.hooks.subscribe('ecard_failed', `${ctx.receiver.url}${failed}`);
    const { ecard, widget } = await ecardOf(ctx.account.accountId);
    const at = domain();
    smtp.failNext(1, 550, '5.1.1 Mailbox unavailable');
    const sendId = await emailSend(ctx.account, ecard.id, [`ann@${at}`, `bob@${at}`, `cy@${at}`]);
    await ctx.hooks.settled(deliveredId);
    await ctx.hooks.settled(failedId);
    const send = { sendId, origin: 'single', ecardid: ecard.id, widgetid: widget.id, campaign_id: null, automation_id: null };
    const row = await ctx.stack.models.Send.findOne({ where: { send_id: sendId }, rejectOnEmpty: true });
    const rows = await ctx.stack.models.SendRecipient.findAll({ where: { send_id: row.id }, order: [['position', 'ASC']] });
    const [ok] = bodies(delivered);
    expect(bodies(delivered)).to.have.length(1);
    expect(ok).to.deep.include({ event_type: 'ecard_delivered', send });
    expectEventShape('ecard_delivered', ok);
    expect(ok!.recipients).to.deep.equal(
      rows.filter((r) => r.status === 'sent').map((r) => ({ sendId, name: r.recipient_name, email: r.recipient_email, status: 'sent', sent_at: r.finished_at!.toISOString(), opened_at: null, bounced_at: null, failure: null })),
    );
    expect(ok!.recipients).to.have.length(2);
    const [bad] = bodies(failed);
    expectEventShape('ecard_failed', bad);
    expect(bodies(failed)).to.have.length(1);
    expect(bad).to.deep.include({ event_type: 'ecard_failed', send });
    expect(bad!.recipients).to.have.length(1);
    expect(bad!.recipients[0]).to.deep.include({ status: 'failed', sent_at: null });
    expect(bad!.recipients[0]!.failure).to.match(/Mailbox unavailable/);
    await expectSigned(delivered);
    await expectSigned(failed);
    // The event id is the delivery's, and the stored body is what was sent.
    const [log] = await ctx.hooks.deliveries(`&endpoint_id=${deliveredId}`);
    expect(log!.event_id).to.equal(ok!.event_id);
    expect((await ctx.hooks.delivery(log!.id)).body).to.equal(ctx.receiver.at(delivered)[0]!.body);
    // A single send's outcomes go the bulk sender's way (marks announced at its end): none is left marked, and the
    // sweep finds nothing more to announce.
    expect(rows.map((r) => r.announce_event)).to.deep.equal([null, null, null]);
    expect(await sweepOutcomeMarks(ctx.stack.services, new Date(Date.now() + 3_600_000))).to.equal(false);
    expect(bodies(delivered)).to.have.length(1);
    expect(bodies(failed)).to.have.length(1);
  });

  it('ecard_opened comes only from the open action, once per recipient; replay sends the same body again', async () => {
    const path = hookPath('opened');
    const endpointId = await ctx.hooks.subscribe('ecard_opened', `${ctx.receiver.url}${path}`);
    const { ecard } = await ecardOf(ctx.account.accountId);
    const at = domain();
    const sendId = await emailSend(ctx.account, ecard.id, [`ora@${at}`, `pia@${at}`]);
    const row = await ctx.stack.models.Send.findOne({ where: { send_id: sendId }, rejectOnEmpty: true });
    const [first, second] = await ctx.stack.models.SendRecipient.findAll({ where: { send_id: row.id }, order: [['position', 'ASC']] });
    // Viewing the page opens nothing.
    expect((await fetch(`${ctx.stack.url}/e/${first!.page_id}`)).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await ctx.stack.models.OutboxEvent.count({ where: { account_id: ctx.account.accountId, event_type: 'ecard_opened' } })).to.equal(0);
    for (let i = 0; i < 3; i++) expect((await fetch(`${ctx.stack.url}/e/${first!.page_id}/open`, { method: 'POST', redirect: 'manual' })).status).to.equal(303);
    const [delivery] = await ctx.hooks.settled(endpointId);
    await first!.reload();
    expect(bodies(path)).to.have.length(1);
    expect(bodies(path)[0]!.recipients).to.deep.equal([
      { sendId, name: 'Person 1', email: `ora@${at}`, status: 'sent', sent_at: first!.finished_at!.toISOString(), opened_at: first!.opened_at!.toISOString(), bounced_at: null, failure: null },
    ]);
    await (await fetch(`${ctx.stack.url}/e/${second!.page_id}/open`, { method: 'POST', redirect: 'manual' })).text();
    const both = await ctx.hooks.settled(endpointId, 2);
    expect(both).to.have.length(2);
    expect(bodies(path).map((b) => b.recipients[0]!.email)).to.deep.equal([`ora@${at}`, `pia@${at}`]);
    await expectSigned(path);

    expectSuccess(await ctx.hooks.api('POST', '/webhook/deliveries/replay', { id: delivery!.id }));
    await eventually(async () => ctx.receiver.at(path).length, (n) => n === 3, 15_000);
    expect(ctx.receiver.at(path)[2]!.body).to.equal(ctx.receiver.at(path)[0]!.body);
    await expectSigned(path);
  });

  it('writes nothing for a type no one subscribes to', async () => {
    // A subscription to another type only: no outcome rows at all.
    await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${hookPath('members')}`);
    const { ecard } = await ecardOf(ctx.account.accountId);
    const at = domain();
    smtp.failNext(1, 550, '5.1.1 Mailbox unavailable');
    const sendId = await emailSend(ctx.account, ecard.id, [`no@${at}`, `one@${at}`]);
    const row = await ctx.stack.models.Send.findOne({ where: { send_id: sendId }, rejectOnEmpty: true });
    const recipient = await ctx.stack.models.SendRecipient.findOne({ where: { send_id: row.id, status: 'sent' }, rejectOnEmpty: true });
    await fetch(`${ctx.stack.url}/e/${recipient.page_id}/open`, { method: 'POST', redirect: 'manual' });
    expect((await recipient.reload()).opened_at).to.not.equal(null);
    const outcome = { account_id: ctx.account.accountId, event_type: { [Op.in]: [...OUTCOME_EVENT_TYPES] } };
    expect(await ctx.stack.models.OutboxEvent.count({ where: outcome })).to.equal(0);
    expect(await ctx.stack.models.WebhookDelivery.count({ where: outcome })).to.equal(0);
  });

  it('sample: the test send serves each outcome type, signed', async () => {
    for (const type of OUTCOME_EVENT_TYPES) {
      const path = hookPath(`sample-${type}`);
      const endpointId = await ctx.hooks.subscribe(type, `${ctx.receiver.url}${path}`);
      expectSuccess(await ctx.hooks.api('POST', '/webhook/test', { endpoint_id: endpointId }));
      await eventually(async () => ctx.receiver.at(path).length, (n) => n === 1, 15_000);
      const [body] = bodies(path);
      expect(body).to.include({ event_type: type });
      expect(body!.recipients).to.have.length(1);
      expect(body!.send).to.have.keys('sendId', 'origin', 'ecardid', 'widgetid', 'campaign_id', 'automation_id');
      await expectSigned(path);
    }
  });

  it('a campaign of 250 recipients: ecard_delivered in three deliveries of 100, 100 and 50 recipients', async () => {
    // The sandbox account (the sink): micro-batches of 100.
    const sandbox = { ...ctx.account, accountId: ctx.account.sandboxAccountId, liveKey: ctx.account.sandboxKey };
    const hooks = webhookApi(ctx.stack, ctx.account, ctx.account.sandboxKey);
    const path = hookPath('campaign');
    const endpointId = await hooks.subscribe('ecard_delivered', `${ctx.receiver.url}${path}`);
    const { ecard } = await ecardOf(sandbox.accountId);
    const { ok } = apiClient(ctx.stack, sandbox.liveKey);
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Many', from_name: 'HR', from_email: 'hr@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] });
    const at = domain();
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: Array.from({ length: 250 }, (_, i) => ({ email: `r${i}@${at}`, name: `R ${i}` })) });
    await ok('POST', '/campaign/send', { campaignid: id });
    await eventually(() => ctx.stack.models.Campaign.findByPk(id), (c) => c?.status === 'sent', 90_000, 200);
    await hooks.settled(endpointId, 3, 30_000);
    const got = bodies(path);
    expect(got.map((b) => b.recipients.length).sort((a, b) => b - a)).to.deep.equal([100, 100, 50]);
    expect(new Set(got.flatMap((b) => b.recipients.map((r) => r.email))).size).to.equal(250);
    const made = await ctx.stack.models.Send.findOne({ where: { origin: 'campaign', origin_id: id }, rejectOnEmpty: true });
    for (const b of got) expect(b.send).to.deep.equal({ sendId: null, origin: 'campaign', ecardid: made.ecard_id, widgetid: made.widget_id, campaign_id: id, automation_id: null });
    expect(new Set(got.flatMap((b) => b.recipients.map((r) => r.sendId))).size).to.equal(250);
  });
});
