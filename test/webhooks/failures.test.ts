import { expect } from 'chai';
import { expectFailure, expectSuccess } from '../helpers/api.ts';
import { ownerUser } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { hookPath, webhookContext } from '../helpers/webhooks.ts';

describe('webhooks: failures, 410, 429, redirects, timeouts, pausing', function () {
  this.timeout(60_000);
  const ctx = webhookContext();
  let emails = 0;
  const member = () => ctx.hooks.upsert({ email: `m${++emails}@example.com` });

  it('410 stops at once and removes the subscription; later events are not delivered to it', async () => {
    const path = hookPath('gone');
    ctx.receiver.on(path, () => ({ status: 410 }));
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    await member();
    const [delivery] = await ctx.hooks.settled(endpointId);
    expect(delivery).to.deep.include({ status: 'Failed', attempts: 1, error: 'HTTP 410 Gone' });
    const endpoints = expectSuccess(await ctx.hooks.api('GET', '/webhook/endpoints')) as Array<{ id: number }>;
    expect(endpoints.map((e) => e.id)).not.to.include(endpointId);
    await member();
    await new Promise((r) => setTimeout(r, 500));
    expect(ctx.receiver.at(path)).to.have.length(1);
    expect((await ctx.stack.models.WebhookEndpoint.findByPk(endpointId))!.consecutive_failures).to.equal(0);
  });

  it('a 302 is a failure and is not followed; a timeout is a failure', async () => {
    const target = hookPath('redirect-target');
    const redirect = hookPath('redirect');
    ctx.receiver.on(redirect, () => ({ status: 302, headers: { Location: `${ctx.receiver.url}${target}` } }));
    const slow = hookPath('slow');
    ctx.receiver.on(slow, () => ({ status: 200, delayMs: 2500 }));
    const redirectId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${redirect}`);
    const slowId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${slow}`);
    await member();
    const [redirected] = await ctx.hooks.settled(redirectId);
    expect(redirected).to.deep.include({ status: 'Failed', attempts: 3 });
    expect(redirected!.error).to.match(/^retries exhausted: HTTP 302/);
    expect(ctx.receiver.at(redirect)).to.have.length(3);
    expect(ctx.receiver.at(target)).to.have.length(0);
    const [timedOut] = await ctx.hooks.settled(slowId, 1, 20_000);
    expect(timedOut).to.deep.include({ status: 'Failed', attempts: 3 });
    const detail = await ctx.hooks.delivery(timedOut!.id);
    expect(detail.attempt_log.map((a) => [a.response_status, a.outcome])).to.deep.equal([
      [null, 'failed'],
      [null, 'failed'],
      [null, 'failed'],
    ]);
    expect(detail.attempt_log[0]!.error).to.match(/timeout after 1500 ms/);
  });

  it('429 waits for its Retry-After when that is longer than the scheduled delay', async () => {
    const path = hookPath('busy');
    ctx.receiver.on(path, (n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '3' } } : { status: 200 }));
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    await member();
    const [delivery] = await ctx.hooks.settled(endpointId, 1, 20_000);
    expect(delivery).to.deep.include({ status: 'Delivered', attempts: 2 });
    const [first, second] = ctx.receiver.at(path);
    expect(second!.at - first!.at).to.be.at.least(2900);
  });

  it('3 exhausted deliveries in a row pause a custom endpoint and email the owner once; new events are logged Failed; re-enable resets', async () => {
    const path = hookPath('down');
    let up = false;
    ctx.receiver.on(path, () => ({ status: up ? 200 : 503 }));
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    for (let i = 0; i < 3; i++) await member();
    const exhausted = await ctx.hooks.settled(endpointId, 3, 30_000);
    expect(exhausted.map((d) => d.status)).to.deep.equal(['Failed', 'Failed', 'Failed']);
    const [endpoint] = (expectSuccess(await ctx.hooks.api('GET', '/webhook/endpoints')) as Array<{ id: number; state: string; consecutive_failures: number }>).filter((e) => e.id === endpointId);
    expect(endpoint).to.deep.include({ state: 'paused', consecutive_failures: 3 });
    const mails = await ctx.stack.models.MailMessage.findAll({ where: { account_id: ctx.account.accountId, kind: 'webhook_endpoint_paused' } });
    expect(mails).to.have.length(1);
    const owner = await ownerUser(ctx.stack.models, ctx.account.accountId);
    expect(mails[0]!.recipient).to.equal(owner.email);
    expect(mails[0]!.subject).to.include(path);
    // The worker sends queued notices through the mail transport (the suite's SMTP server).
    const smtp = await testSmtpServer();
    const delivered = await eventually(async () => smtp.to(owner.email), (m) => m.length > 0, 10_000);
    expect(delivered.map((m) => m.subject)).to.deep.equal([`Webhook endpoint paused: ${ctx.receiver.url}${path}`]);
    expect(delivered[0]!.text).to.include('re-enable');
    expect((await mails[0]!.reload()).sent_at).to.be.instanceOf(Date);

    const requestsBefore = ctx.receiver.at(path).length;
    await member();
    const paused = await eventually(
      () => ctx.hooks.deliveries(`&endpoint_id=${endpointId}`),
      (l) => l.length === 4,
    );
    expect(paused[0]).to.deep.include({ status: 'Failed', error: 'endpoint paused', attempts: 0 });
    expect(ctx.receiver.at(path)).to.have.length(requestsBefore);

    up = true;
    const enabled = expectSuccess(await ctx.hooks.api('POST', '/webhook/endpoints/enable', { endpoint_id: endpointId }));
    expect(enabled).to.deep.include({ state: 'active', consecutive_failures: 0 });
    await member();
    const after = await ctx.hooks.settled(endpointId, 5);
    expect(after.at(-1)).to.deep.include({ status: 'Delivered' });
    expect(await ctx.stack.models.MailMessage.count({ where: { account_id: ctx.account.accountId } })).to.equal(1);
  });

  it('an integration-platform endpoint is never paused', async () => {
    const path = hookPath('zap');
    ctx.receiver.on(path, () => ({ status: 500 }));
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`, { integration: true });
    for (let i = 0; i < 3; i++) await member();
    await ctx.hooks.settled(endpointId, 3, 30_000);
    const endpoint = await ctx.stack.models.WebhookEndpoint.findByPk(endpointId);
    expect(endpoint).to.deep.include({ integration: true, paused_at: null, consecutive_failures: 3 });
    expect(await ctx.stack.models.MailMessage.count({ where: { account_id: ctx.account.accountId } })).to.equal(0);
  });

  it('a paused endpoint\'s retrying deliveries end Failed ("endpoint paused") at their next attempt', async () => {
    const path = hookPath('paused-midway');
    ctx.receiver.on(path, () => ({ status: 500 }));
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    await member();
    await eventually(() => ctx.hooks.deliveries(`&endpoint_id=${endpointId}`), (l) => l[0]?.status === 'Retrying');
    await ctx.stack.models.WebhookEndpoint.update({ paused_at: new Date() }, { where: { id: endpointId } });
    const [delivery] = await ctx.hooks.settled(endpointId);
    expect(delivery).to.deep.include({ status: 'Failed', error: 'endpoint paused', attempts: 1 });
    expect(ctx.receiver.at(path)).to.have.length(1);
  });

  it('replay sends the same body and event id again as a new attempt; the earlier attempts stay', async () => {
    const path = hookPath('replay');
    let up = false;
    ctx.receiver.on(path, () => ({ status: up ? 200 : 500 }));
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    await member();
    const [failed] = await ctx.hooks.settled(endpointId);
    expect(failed!.status).to.equal('Failed');
    up = true;
    expectSuccess(await ctx.hooks.api('POST', '/webhook/deliveries/replay', { id: failed!.id }));
    const replayed = await eventually(() => ctx.hooks.delivery(failed!.id), (d) => d.status === 'Delivered');
    expect(replayed.attempt_log.map((a) => [a.trigger, a.outcome])).to.deep.equal([
      ['auto', 'failed'],
      ['auto', 'failed'],
      ['auto', 'failed'],
      ['replay', 'delivered'],
    ]);
    const requests = ctx.receiver.at(path);
    expect(requests).to.have.length(4);
    expect(new Set(requests.map((r) => r.body)).size).to.equal(1);
    expect(requests[3]!.headers['x-svc-event-id']).to.equal(failed!.event_id);
    // The exhausted delivery counted once; its replay, delivered, reset nothing and counted nothing.
    expect((await ctx.stack.models.WebhookEndpoint.findByPk(endpointId))!.consecutive_failures).to.equal(1);
  });

  it('send test fires a signed sample event, logged, even while the endpoint is paused', async () => {
    const path = hookPath('test-send');
    const endpointId = await ctx.hooks.subscribe('team_member_updated', `${ctx.receiver.url}${path}`);
    await ctx.stack.models.WebhookEndpoint.update({ paused_at: new Date() }, { where: { id: endpointId } });
    const started = expectSuccess(await ctx.hooks.api('POST', '/webhook/test', { endpoint_id: endpointId })) as { id: number; trigger: string };
    expect(started.trigger).to.equal('test');
    const done = await eventually(() => ctx.hooks.delivery(started.id), (d) => d.status === 'Delivered');
    expect(done.attempt_log).to.have.length(1);
    expect(done.attempt_log[0]!.trigger).to.equal('test');
    const [request] = ctx.receiver.at(path);
    const body = JSON.parse(request!.body) as { event_type: string; changed_fields: string[]; member: { email: string } };
    expect(body.event_type).to.equal('team_member_updated');
    expect(body.member.email).to.match(/@example\.com$/);
    expect(request!.headers['x-svc-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
    // No ecard_shared URL is set: a test without endpoint_id has nowhere to go.
    expectFailure(await ctx.hooks.api('POST', '/webhook/test', {}), 422, 'no_endpoint');
  });
});
