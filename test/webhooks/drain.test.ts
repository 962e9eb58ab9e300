import { expect } from 'chai';
import { createLogger } from '../../lib/logger.ts';
import { recordEvent } from '../../services/outbox.ts';
import { drainOutbox } from '../../services/webhooks/drain.ts';
import { deliveryWorkflowId } from '../../workflows/webhook-delivery/lifecycle.ts';
import { expectFailure, newAccount, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver, type Receiver } from '../helpers/receiver.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';
import { hookPath, webhookApi } from '../helpers/webhooks.ts';

describe('webhooks: draining the outbox', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let receiver: Receiver;
  let account: TestAccount;
  let hooks: ReturnType<typeof webhookApi>;
  before(async () => {
    stack = await testStack();
    receiver = await testReceiver();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'enterprise');
    hooks = webhookApi(stack, account);
  });

  it('drainers racing over one event make one delivery per endpoint and start one workflow', async () => {
    const path = hookPath('race');
    const endpointId = await hooks.subscribe('team_member_created', `${receiver.url}${path}`);
    const deps = {
      models: stack.models,
      logger: createLogger(stack.config),
      webhooks: stack.config.webhooks,
      now: () => new Date(),
      target: { client: await testClient(), taskQueue: stack.taskQueue },
    };
    // The stack's own drainer is nudged by this commit too: four drainers in all.
    await Promise.all([hooks.upsert({ email: 'race@example.com' }), drainOutbox(deps), drainOutbox(deps), drainOutbox(deps)]);
    await Promise.all([drainOutbox(deps), drainOutbox(deps)]);
    const [delivery] = await hooks.settled(endpointId);
    expect(await stack.models.WebhookDelivery.count({ where: { endpoint_id: endpointId } })).to.equal(1);
    expect(delivery!.status).to.equal('Delivered');
    expect(receiver.at(path)).to.have.length(1);
    const runs = [];
    for await (const run of (await testClient()).workflow.list({ query: `WorkflowId = '${delivery!.workflow_id}'` })) runs.push(run);
    expect(runs).to.have.length(1);
  });

  it('a delivery made before a crash that kept its workflow from starting is started by the next sweep', async () => {
    const path = hookPath('crash');
    const endpointId = await hooks.subscribe('team_member_created', `${receiver.url}${path}`);
    const eventId = crypto.randomUUID();
    // What a drainer leaves when it dies between its commit and the workflow start.
    const event = await stack.models.OutboxEvent.create({
      event_id: eventId,
      account_id: account.accountId,
      event_type: 'team_member_created',
      source: 'api',
      member_id: null,
      payload: JSON.stringify({ event_id: eventId, event_type: 'team_member_created' }),
      occurred_at: new Date(),
      drained_at: new Date(),
    });
    await stack.models.WebhookDelivery.create({
      account_id: account.accountId,
      endpoint_id: endpointId,
      outbox_id: event.id,
      event_id: eventId,
      event_type: 'team_member_created',
      trigger: 'auto',
      status: 'Pending',
      error: null,
      finished_at: null,
      workflow_id: deliveryWorkflowId(account.accountId, eventId, endpointId),
    });
    const [delivery] = await hooks.settled(endpointId);
    expect(delivery).to.deep.include({ status: 'Delivered', attempts: 1 });
    expect(receiver.at(path)).to.have.length(1);
    expect((await stack.models.WebhookDelivery.findByPk(delivery!.id))!.workflow_started).to.equal(true);
  });

  it('an event goes only to the subscriptions that existed when it happened', async () => {
    const early = hookPath('early');
    const late = hookPath('late');
    await hooks.subscribe('team_member_created', `${receiver.url}${early}`);
    const occurredAt = new Date(Date.now() - 60_000);
    const lateId = await hooks.subscribe('team_member_created', `${receiver.url}${late}`);
    await stack.models.WebhookEndpoint.update({ created_at: new Date() }, { where: { id: lateId } });
    const eventId = crypto.randomUUID();
    await stack.models.sequelize.transaction(async (transaction) => {
      await stack.models.WebhookEndpoint.update({ created_at: new Date(occurredAt.getTime() - 1000) }, { where: { account_id: account.accountId, url: `${receiver.url}${early}` }, transaction });
      await recordEvent(stack.models, { accountId: account.accountId, eventId, eventType: 'team_member_created', source: 'api', memberId: null, occurredAt, body: { event_id: eventId } }, transaction);
    });
    await eventually(() => stack.models.WebhookDelivery.findAll({ where: { event_id: eventId } }), (d) => d.length > 0 && d.every((x) => x.status === 'Delivered'));
    const deliveries = await stack.models.WebhookDelivery.findAll({ where: { event_id: eventId } });
    expect(deliveries).to.have.length(1);
    expect(receiver.at(late)).to.have.length(0);
  });

  it('filters the log by status, event type, endpoint and dates; bad filters are 400', async () => {
    const ok = hookPath('log-ok');
    const bad = hookPath('log-bad');
    receiver.on(bad, () => ({ status: 410 }));
    const okId = await hooks.subscribe('team_member_created', `${receiver.url}${ok}`);
    const badId = await hooks.subscribe('team_member_created', `${receiver.url}${bad}`);
    const updatedId = await hooks.subscribe('team_member_updated', `${receiver.url}${ok}`);
    await hooks.upsert({ email: 'log@example.com' });
    await hooks.upsert({ email: 'log@example.com', first_name: 'Logged' });
    await hooks.settled(okId);
    await hooks.settled(badId);
    await hooks.settled(updatedId);
    expect((await hooks.deliveries('&status=Failed')).map((d) => d.endpoint_id)).to.deep.equal([badId]);
    expect((await hooks.deliveries('&event_type=team_member_updated')).map((d) => d.endpoint_id)).to.deep.equal([updatedId]);
    expect((await hooks.deliveries(`&endpoint_id=${okId}`)).map((d) => d.event_type)).to.deep.equal(['team_member_created']);
    expect(await hooks.deliveries('&dateFrom=2100-01-01T00:00:00Z')).to.deep.equal([]);
    expect(await hooks.deliveries('&dateTo=2000-01-01T00:00:00Z')).to.deep.equal([]);
    expect(await hooks.deliveries(`&dateFrom=${new Date(Date.now() - 60_000).toISOString()}`)).to.have.length(3);
    for (const query of ['status=Sent', 'endpoint_id=abc', 'dateFrom=yesterday', 'perPage=101']) {
      expectFailure(await hooks.api('GET', `/webhook/deliveries?${query}`), 400, 'invalid_parameter');
    }
  });
});
