import { expect } from 'chai';
import { recordEvent } from '../../services/outbox.ts';
import { drainOutbox } from '../../services/webhooks/drain.ts';
import { expectFailure } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testClient } from '../helpers/temporal.ts';
import { hookPath, insertDelivery, webhookContext } from '../helpers/webhooks.ts';

describe('webhooks: draining the outbox', function () {
  this.timeout(60_000);
  const ctx = webhookContext();

  it('drainers racing over one event make one delivery per endpoint and start one workflow', async () => {
    const path = hookPath('race');
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    const deps = ctx.stack.services;
    // The stack's own drainer is nudged by this commit too: four drainers in all.
    await Promise.all([ctx.hooks.upsert({ email: 'race@example.com' }), drainOutbox(deps), drainOutbox(deps), drainOutbox(deps)]);
    await Promise.all([drainOutbox(deps), drainOutbox(deps)]);
    const [delivery] = await ctx.hooks.settled(endpointId);
    expect(await ctx.stack.models.WebhookDelivery.count({ where: { endpoint_id: endpointId } })).to.equal(1);
    expect(delivery!.status).to.equal('Delivered');
    expect(ctx.receiver.at(path)).to.have.length(1);
    const runs = [];
    for await (const run of (await testClient()).workflow.list({ query: `WorkflowId = '${delivery!.workflow_id}'` })) runs.push(run);
    expect(runs).to.have.length(1);
  });

  it('a delivery made before a crash that kept its workflow from starting is started by the next sweep', async () => {
    const path = hookPath('crash');
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    // What a drainer leaves when it dies between its commit and the workflow start.
    await insertDelivery(ctx.stack.models, ctx.account.accountId, endpointId, { workflowStarted: false });
    const [delivery] = await ctx.hooks.settled(endpointId);
    expect(delivery).to.deep.include({ status: 'Delivered', attempts: 1 });
    expect(ctx.receiver.at(path)).to.have.length(1);
    expect((await ctx.stack.models.WebhookDelivery.findByPk(delivery!.id))!.workflow_started).to.equal(true);
  });

  it('an event goes only to the subscriptions that existed when it happened', async () => {
    const early = hookPath('early');
    const late = hookPath('late');
    await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${early}`);
    const occurredAt = new Date(Date.now() - 60_000);
    const lateId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${late}`);
    await ctx.stack.models.WebhookEndpoint.update({ created_at: new Date() }, { where: { id: lateId } });
    const eventId = crypto.randomUUID();
    await ctx.stack.models.sequelize.transaction(async (transaction) => {
      await ctx.stack.models.WebhookEndpoint.update({ created_at: new Date(occurredAt.getTime() - 1000) }, { where: { account_id: ctx.account.accountId, url: `${ctx.receiver.url}${early}` }, transaction });
      await recordEvent(ctx.stack.services, { accountId: ctx.account.accountId, eventId, eventType: 'team_member_created', source: 'api', memberId: null, occurredAt, body: { event_id: eventId } }, transaction);
    });
    await eventually(() => ctx.stack.models.WebhookDelivery.findAll({ where: { event_id: eventId } }), (d) => d.length > 0 && d.every((x) => x.status === 'Delivered'));
    const deliveries = await ctx.stack.models.WebhookDelivery.findAll({ where: { event_id: eventId } });
    expect(deliveries).to.have.length(1);
    expect(ctx.receiver.at(late)).to.have.length(0);
  });

  it('a subscription made while upserts run takes exactly the member events from its time on; the others drain with no delivery', async () => {
    const path = hookPath('midway');
    const { models, services } = ctx.stack;
    const { accountId } = ctx.account;
    const creates = (from: number) => Array.from({ length: 10 }, (_, i) => ctx.hooks.upsert({ email: `midway-${from + i}@example.com` }));
    // Drainers race the upserts and the subscription (the stack's own drainer too, nudged by each commit).
    await Promise.all([...creates(0), drainOutbox(services)]);
    const [endpointId] = await Promise.all([ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`), ...creates(10), drainOutbox(services)]);
    await Promise.all([...creates(20), drainOutbox(services), drainOutbox(services)]);
    const events = await eventually(
      () => models.OutboxEvent.findAll({ where: { account_id: accountId } }),
      (list) => list.length === 30 && list.every((e) => e.drained_at !== null),
    );
    const endpoint = await models.WebhookEndpoint.findByPk(endpointId, { rejectOnEmpty: true });
    const taken = events.filter((e) => e.occurred_at >= endpoint.created_at).map((e) => e.event_id);
    expect(taken.length).to.be.at.least(10);
    const deliveries = await models.WebhookDelivery.findAll({ where: { account_id: accountId } });
    expect(deliveries.map((d) => d.event_id).sort()).to.deep.equal(taken.sort());
    await ctx.hooks.settled(endpointId, taken.length);
    expect(ctx.receiver.at(path)).to.have.length(taken.length);
  });

  it('filters the log by status, event type, endpoint and dates; bad filters are 400', async () => {
    const ok = hookPath('log-ok');
    const bad = hookPath('log-bad');
    ctx.receiver.on(bad, () => ({ status: 410 }));
    const okId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${ok}`);
    const badId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${bad}`);
    const updatedId = await ctx.hooks.subscribe('team_member_updated', `${ctx.receiver.url}${ok}`);
    await ctx.hooks.upsert({ email: 'log@example.com' });
    await ctx.hooks.upsert({ email: 'log@example.com', first_name: 'Logged' });
    await ctx.hooks.settled(okId);
    await ctx.hooks.settled(badId);
    await ctx.hooks.settled(updatedId);
    expect((await ctx.hooks.deliveries('&status=Failed')).map((d) => d.endpoint_id)).to.deep.equal([badId]);
    expect((await ctx.hooks.deliveries('&event_type=team_member_updated')).map((d) => d.endpoint_id)).to.deep.equal([updatedId]);
    expect((await ctx.hooks.deliveries(`&endpoint_id=${okId}`)).map((d) => d.event_type)).to.deep.equal(['team_member_created']);
    expect(await ctx.hooks.deliveries('&dateFrom=2100-01-01T00:00:00Z')).to.deep.equal([]);
    expect(await ctx.hooks.deliveries('&dateTo=2000-01-01T00:00:00Z')).to.deep.equal([]);
    expect(await ctx.hooks.deliveries(`&dateFrom=${new Date(Date.now() - 60_000).toISOString()}`)).to.have.length(3);
    for (const query of ['status=Sent', 'endpoint_id=abc', 'dateFrom=yesterday', 'perPage=101']) {
      expectFailure(await ctx.hooks.api('GET', `/webhook/deliveries?${query}`), 400, 'invalid_parameter');
    }
  });
});
