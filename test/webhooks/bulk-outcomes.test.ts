// Outcome events of bulk sends and of campaigns and gifts (issue 34, item 2): a live campaign over SMTP (micro-batches
// of the pool's 5) announces its recipients in deliveries of up to 100, delivered ones and (SMTP refusing them all)
// failed ones; campaign_completed once per campaign (sent, canceled); gift_claimed once per claim; a campaign gift that
// could not be had fails its recipient with ecard_failed; marks a crash left behind go out by the sweep, once; replay
// of ecard_delivered and ecard_failed; samples; nothing written without a subscriber. Every delivery arrives at a real
// receiver, signed.
import { expect } from 'chai';
import { Op } from 'sequelize';
import { verifySignature } from '../../lib/signing.ts';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { updateSettings } from '../../services/rewards/settings.ts';
import { ALL_OUTCOME_EVENT_TYPES } from '../../services/sends/delivery/outcome-events.ts';
import { sweepOutcomeMarks } from '../../services/sends/delivery/outcome-marks.ts';
import { accountSecret } from '../../services/webhooks/secrets.ts';
import { apiClient, expectSuccess } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { hookPath, webhookApi, webhookContext } from '../helpers/webhooks.ts';
import { seedGift } from '../rewards/claim-seed.ts';

type Json = Record<string, unknown>;
type Recipient = { sendId: string; name: string | null; email: string | null; status: string; failure: string | null };
type Outcome = { event_id: string; event_type: string; send: Json; recipients: Recipient[] };

describe('webhooks: outcome events of campaigns and gifts', function () {
  this.timeout(180_000);
  const ctx = webhookContext();
  let smtp: SmtpTestServer;
  let counter = 0;
  before(async () => {
    smtp = await testSmtpServer();
  });
  const domain = () => `bulk-outcome${process.pid}-${++counter}.example.com`;
  const bodies = <T = Outcome>(path: string) => ctx.receiver.at(path).map((r) => JSON.parse(r.body) as T);

  async function expectSigned(path: string) {
    const secret = (await accountSecret(ctx.stack.services, ctx.account.accountId)).secret;
    expect(ctx.receiver.at(path)).to.not.have.length(0);
    for (const request of ctx.receiver.at(path)) expect(verifySignature(request.headers['x-svc-signature'] as string, request.body, [secret])).to.equal(true);
  }

  const { ok } = apiClient(() => ctx.stack);

  /** A live campaign of `count` recipients with one eCard, saved and ready to send. */
  async function campaign(count: number, fields: Json = {}): Promise<{ id: number; at: string }> {
    const widget = await insertWidget(ctx.stack.models, ctx.account.accountId);
    const ecard = await insertEcard(ctx.stack.models, ctx.account.accountId, widget.id);
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Many', from_name: 'HR', from_email: 'hr@example.com', ...fields } }, ctx.account.liveKey)).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] }, ctx.account.liveKey);
    const at = domain();
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: Array.from({ length: count }, (_, i) => ({ email: `r${i}@${at}`, name: `R ${i}` })) }, ctx.account.liveKey);
    return { id, at };
  }
  const ended = (id: number) => eventually(() => ctx.stack.models.Campaign.findByPk(id), (c) => ['sent', 'failed', 'canceled'].includes(c?.status ?? ''), 120_000, 200);
  const marks = () => ctx.stack.models.SendRecipient.count({ where: { announce_event: { [Op.ne]: null } } });

  it('a live campaign of 250 over SMTP (micro-batches of 5): ecard_delivered in exactly three deliveries (100, 100, 50), then one campaign_completed; replay resends a batch', async () => {
    expect(ctx.stack.services.config.mail.poolSize).to.equal(5);
    const delivered = hookPath('delivered');
    const completed = hookPath('completed');
    const deliveredId = await ctx.hooks.subscribe('ecard_delivered', `${ctx.receiver.url}${delivered}`);
    const completedId = await ctx.hooks.subscribe('campaign_completed', `${ctx.receiver.url}${completed}`);
    const { id, at } = await campaign(250);
    await ok('POST', '/campaign/send', { campaignid: id }, ctx.account.liveKey);
    expect((await ended(id))!.status).to.equal('sent');
    expect(smtp.messages.filter((m) => m.to.some((t) => t.endsWith(`@${at}`)))).to.have.length(250);
    const logged = await ctx.hooks.settled(deliveredId, 3, 30_000);
    await ctx.hooks.settled(completedId, 1, 30_000);
    // Nothing more comes later (the sweep finds no mark either).
    expect(await sweepOutcomeMarks(ctx.stack.services, new Date(Date.now() + 3_600_000))).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(logged).to.have.length(3);
    const got = bodies(delivered);
    // Deliveries run side by side: their order of arrival is not theirs of writing.
    expect(got.map((b) => b.recipients.length).sort((a, b) => b - a)).to.deep.equal([100, 100, 50]);
    expect(new Set(got.flatMap((b) => b.recipients.map((r) => r.email))).size).to.equal(250);
    expect(got.every((b) => b.event_type === 'ecard_delivered' && b.send.campaign_id === id && b.send.sendId === null)).to.equal(true);
    expect(got.flatMap((b) => b.recipients).every((r) => r.status === 'sent' && r.email!.endsWith(`@${at}`))).to.equal(true);
    await expectSigned(delivered);
    expect(await marks()).to.equal(0);

    const [done] = bodies<{ event_type: string; campaign: Json }>(completed);
    expect(bodies(completed)).to.have.length(1);
    expect(done!.event_type).to.equal('campaign_completed');
    expect(done!.campaign).to.deep.equal({ id, name: 'Many', status: 'sent', counts: { recipients: 250, pending: 0, sent: 250, failed: 0, unknown: 0, skipped: 0, canceled: 0, opened: 0, bounced: 0 } });
    await expectSigned(completed);

    // Replay: the same body (and event id) again, signed.
    expectSuccess(await ctx.hooks.api('POST', '/webhook/deliveries/replay', { id: logged[1]!.id }));
    await eventually(async () => ctx.receiver.at(delivered).length, (n) => n === 4, 15_000);
    const replayed = ctx.receiver.at(delivered)[3]!.body;
    expect(ctx.receiver.at(delivered).slice(0, 3).map((r) => r.body)).to.include(replayed);
    await expectSigned(delivered);
  });

  it('a live campaign of 250 whose every recipient SMTP refuses: ecard_failed in exactly three deliveries (100, 100, 50), each recipient once', async () => {
    const failed = hookPath('failed-250');
    const endpointId = await ctx.hooks.subscribe('ecard_failed', `${ctx.receiver.url}${failed}`);
    const { id, at } = await campaign(250);
    // One message per recipient: the next 250 DATA answers are a permanent refusal.
    smtp.failNext(250, 550, '5.1.1 Mailbox unavailable');
    await ok('POST', '/campaign/send', { campaignid: id }, ctx.account.liveKey);
    // Nobody got the card: the campaign ends `failed` (services/campaigns/run.ts).
    expect((await ended(id))!.status).to.equal('failed');
    expect(smtp.messages.filter((m) => m.to.some((t) => t.endsWith(`@${at}`)))).to.have.length(0);
    const logged = await ctx.hooks.settled(endpointId, 3, 30_000);
    expect(await sweepOutcomeMarks(ctx.stack.services, new Date(Date.now() + 3_600_000))).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(logged).to.have.length(3);
    const got = bodies(failed);
    expect(got).to.have.length(3);
    // Deliveries run side by side: their order of arrival is not theirs of writing.
    expect(got.map((b) => b.recipients.length).sort((a, b) => b - a)).to.deep.equal([100, 100, 50]);
    const emails = got.flatMap((b) => b.recipients.map((r) => r.email));
    expect(emails).to.have.length(250);
    expect(new Set(emails).size).to.equal(250);
    expect(got.every((b) => b.event_type === 'ecard_failed' && b.send.campaign_id === id && b.send.sendId === null)).to.equal(true);
    expect(got.flatMap((b) => b.recipients).every((r) => r.status === 'failed' && /Mailbox unavailable/.test(r.failure ?? '') && r.email!.endsWith(`@${at}`))).to.equal(true);
    await expectSigned(failed);
    expect(await marks()).to.equal(0);
  });

  it('ecard_failed: the campaign recipients SMTP refused, in one delivery, once; replay resends it', async () => {
    const failed = hookPath('failed');
    const endpointId = await ctx.hooks.subscribe('ecard_failed', `${ctx.receiver.url}${failed}`);
    const { id } = await campaign(6);
    smtp.failNext(2, 550, '5.1.1 Mailbox unavailable');
    await ok('POST', '/campaign/send', { campaignid: id }, ctx.account.liveKey);
    expect((await ended(id))!.status).to.equal('sent');
    const [delivery] = await ctx.hooks.settled(endpointId, 1, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(bodies(failed)).to.have.length(1);
    const [body] = bodies(failed);
    expect(body!.recipients).to.have.length(2);
    expect(body!.recipients.every((r) => r.status === 'failed' && /Mailbox unavailable/.test(r.failure ?? ''))).to.equal(true);
    await expectSigned(failed);
    expectSuccess(await ctx.hooks.api('POST', '/webhook/deliveries/replay', { id: delivery!.id }));
    await eventually(async () => ctx.receiver.at(failed).length, (n) => n === 2, 15_000);
    expect(ctx.receiver.at(failed)[1]!.body).to.equal(ctx.receiver.at(failed)[0]!.body);
    await expectSigned(failed);
  });

  it('a campaign gift the provider declined fails its recipients with ecard_failed, once, in one delivery', async () => {
    // The sandbox buys from the simulated provider, which declines amounts ending in .13.
    const sandbox = { ...ctx.account, accountId: ctx.account.sandboxAccountId, liveKey: ctx.account.sandboxKey };
    const hooks = webhookApi(ctx.stack, ctx.account, ctx.account.sandboxKey);
    await updateSettings(ctx.stack.services, ctx.account.accountId, { provider_mode: 'provider' });
    await updateSettings(ctx.stack.services, sandbox.accountId, { provider_mode: 'provider' });
    const failed = hookPath('gift-failed');
    const endpointId = await hooks.subscribe('ecard_failed', `${ctx.receiver.url}${failed}`);
    const widget = await insertWidget(ctx.stack.models, sandbox.accountId);
    const ecard = await insertEcard(ctx.stack.models, sandbox.accountId, widget.id);
    const gift = { gift_card_enabled: true, gift_card: { product_id: 'simulated:AMAZON-US', amount: 25.13 } };
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Gifts', from_name: 'HR', from_email: 'hr@example.com', ...gift } }, sandbox.liveKey)).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] }, sandbox.liveKey);
    const at = domain();
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: [0, 1].map((i) => ({ email: `g${i}@${at}`, name: `G ${i}` })) }, sandbox.liveKey);
    const { token } = await issueToken(ctx.stack, { accountId: sandbox.accountId, purpose: 'gc_campaign_send', resourceId: String(id), now: new Date() });
    await ok('POST', '/campaign/send', { campaignid: id, gc_confirmation_token: token }, sandbox.liveKey);
    expect((await ended(id))!.status).to.equal('failed');
    await hooks.settled(endpointId, 1, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(bodies(failed)).to.have.length(1);
    const [body] = bodies(failed);
    expect(body!.recipients.map((r) => r.email).sort()).to.deep.equal([`g0@${at}`, `g1@${at}`]);
    expect(body!.recipients.every((r) => r.status === 'failed' && /gift declined/.test(r.failure ?? ''))).to.equal(true);
    const secret = (await accountSecret(ctx.stack.services, sandbox.accountId)).secret;
    for (const request of ctx.receiver.at(failed)) expect(verifySignature(request.headers['x-svc-signature'] as string, request.body, [secret])).to.equal(true);
    expect(await marks()).to.equal(0);
  });

  it('campaign_completed for a canceled campaign, once, with its counts', async () => {
    const path = hookPath('canceled');
    const endpointId = await ctx.hooks.subscribe('campaign_completed', `${ctx.receiver.url}${path}`);
    const { id } = await campaign(3);
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 19);
    await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: at, scheduled_timezone: 'UTC' }, ctx.account.liveKey);
    await ok('POST', '/campaign/cancel', { campaignid: id }, ctx.account.liveKey);
    await ctx.hooks.settled(endpointId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bodies<{ campaign: Json }>(path).map((b) => b.campaign)).to.deep.equal([
      { id, name: 'Many', status: 'canceled', counts: { recipients: 3, pending: 0, sent: 0, failed: 0, unknown: 0, skipped: 0, canceled: 3, opened: 0, bounced: 0 } },
    ]);
    await expectSigned(path);
  });

  it('writes nothing for a campaign or a claim when no one subscribes to their types: no marks, no outcome events, no deliveries', async () => {
    await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${hookPath('members')}`);
    const { id } = await campaign(12);
    smtp.failNext(1, 550, '5.1.1 Mailbox unavailable');
    await ok('POST', '/campaign/send', { campaignid: id }, ctx.account.liveKey);
    expect((await ended(id))!.status).to.equal('sent');
    // A gift claimed: no gift_claimed either.
    const { order, token } = await seedGift(ctx.stack.models, ctx.stack.services.dataKeys!, ctx.account.accountId, { code: `NOSUB-${process.pid}-${Date.now()}-ABCD` });
    expect((await fetch(`${ctx.stack.url}/g/${token}`, { method: 'POST', redirect: 'manual' })).status).to.equal(200);
    expect((await order.reload()).claim_status).to.equal('claimed');
    expect(await marks()).to.equal(0);
    const outcome = { account_id: ctx.account.accountId, event_type: { [Op.in]: [...ALL_OUTCOME_EVENT_TYPES] } };
    expect(await ctx.stack.models.OutboxEvent.count({ where: outcome })).to.equal(0);
    expect(await ctx.stack.models.WebhookDelivery.count({ where: outcome })).to.equal(0);
  });

  it('marks a crash left behind (rows finished, the batch\'s end never came) go out by the sweep, once', async () => {
    const path = hookPath('sweep');
    const { id } = await campaign(3);
    await ok('POST', '/campaign/send', { campaignid: id }, ctx.account.liveKey);
    await ended(id);
    // What a batch that died after its rows' write leaves: the rows marked, no event.
    const endpointId = await ctx.hooks.subscribe('ecard_delivered', `${ctx.receiver.url}${path}`);
    const sends = await ctx.stack.models.Send.findAll({ where: { origin: 'campaign', origin_id: id }, attributes: ['id'] });
    await ctx.stack.models.SendRecipient.update({ announce_event: 'ecard_delivered' }, { where: { send_id: sends.map((s) => s.id) } });
    // Younger than the grace: left to the batch.
    await sweepOutcomeMarks(ctx.stack.services, new Date(Date.now() - 3_600_000));
    expect(await marks()).to.equal(3);
    await sweepOutcomeMarks(ctx.stack.services, new Date(Date.now() + 60_000));
    await sweepOutcomeMarks(ctx.stack.services, new Date(Date.now() + 60_000));
    expect(await marks()).to.equal(0);
    await ctx.hooks.settled(endpointId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bodies(path)).to.have.length(1);
    expect(bodies(path)[0]!.recipients.map((r) => r.status)).to.deep.equal(['sent', 'sent', 'sent']);
    await expectSigned(path);
  });

  it('gift_claimed: the claim page\'s reveal, once per order (a second reveal sends nothing), signed, the code masked', async () => {
    const path = hookPath('claimed');
    const endpointId = await ctx.hooks.subscribe('gift_claimed', `${ctx.receiver.url}${path}`);
    const code = `CLAIM-OUTCOME-${process.pid}-${Date.now()}-7QX2`;
    const { order, token } = await seedGift(ctx.stack.models, ctx.stack.services.dataKeys!, ctx.account.accountId, { code });
    const send = await ctx.stack.models.Send.create({
      send_id: crypto.randomUUID(), account_id: ctx.account.accountId, ecard_id: 1, widget_id: 2, mode: 'email', status: 'sent', sandbox: false,
      sender_name: 'Sam', sender_email: 'sam@example.com', personal_message: null, locale: 'en', merge_tags: null, override_props: null, send_at: new Date(),
      stat_vanity_id: `v${Date.now()}`, quota_month: null, quota_count: 0, error: null, workflow_started: true, origin: 'single', origin_id: null,
    });
    await order.update({ send_id: send.id });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${ctx.stack.url}/g/${token}`, { method: 'POST', redirect: 'manual' });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.include(code);
    }
    await ctx.hooks.settled(endpointId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await order.reload();
    expect(bodies<Json>(path)).to.have.length(1);
    const [body] = bodies<{ event_type: string; order: Json; send: Json }>(path);
    expect(body!.event_type).to.equal('gift_claimed');
    expect(body!.order).to.deep.equal({ id: order.id, code_masked: '****7QX2', amount: 25, currency: 'USD', claimed_at: order.claimed_at!.toISOString() });
    expect(body!.send).to.deep.equal({ sendId: send.send_id, origin: 'single', ecardid: 1, widgetid: 2, campaign_id: null, automation_id: null });
    expect(ctx.receiver.at(path)[0]!.body).to.not.include(code);
    await expectSigned(path);
  });

  it('sample: the test send serves campaign_completed and gift_claimed, signed', async () => {
    for (const type of ['campaign_completed', 'gift_claimed']) {
      const path = hookPath(`sample-${type}`);
      const endpointId = await ctx.hooks.subscribe(type, `${ctx.receiver.url}${path}`);
      expectSuccess(await ctx.hooks.api('POST', '/webhook/test', { endpoint_id: endpointId }));
      await eventually(async () => ctx.receiver.at(path).length, (n) => n === 1, 15_000);
      const [body] = bodies<Json>(path);
      expect(body).to.include({ event_type: type });
      expect(body).to.have.keys('event_id', 'event_type', 'timestamp', type === 'campaign_completed' ? 'campaign' : 'order', ...(type === 'gift_claimed' ? ['send'] : []));
      await expectSigned(path);
    }
  });
});
