import { expect } from 'chai';
import { startWorker, type RunningWorker } from '../../app/runtime.ts';
import { subscribe } from '../../services/webhooks/endpoints.ts';
import { startDeliveryWorkflow } from '../../workflows/webhook-delivery/lifecycle.ts';
import { newAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver } from '../helpers/receiver.ts';
import { testConfig, testServices, testStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';
import { hookPath, insertDelivery } from '../helpers/webhooks.ts';

describe('webhooks: a worker restarted mid-schedule', function () {
  this.timeout(60_000);

  it('finishes the schedule after a restart while the delivery waits for its retry, with no attempt lost or doubled', async () => {
    const stack = await testStack();
    const receiver = await testReceiver();
    // A queue of its own, whose workers run no drainer: this test starts the one workflow itself.
    const config = await testConfig({ TEMPORAL_TASK_QUEUE: `restart-${process.pid}-${Date.now()}` });
    const services = await testServices(config);
    const account = await newAccount(stack.models);
    const path = hookPath('restart');
    receiver.on(path, (n) => ({ status: n === 1 ? 503 : 200 }));
    const endpoint = await subscribe(services, account.accountId, {
      eventType: 'team_member_created',
      hookUrl: `${receiver.url}${path}`,
      integration: false,
    });
    // Marked started, so the stack's own drainer leaves it to this test.
    const delivery = await insertDelivery(stack.models, account.accountId, endpoint.id, { workflowStarted: true });

    let worker: RunningWorker = await startWorker(services, { background: false });
    const client = await testClient();
    await startDeliveryWorkflow({ client, taskQueue: config.temporal.taskQueue }, delivery.workflow_id, account.accountId, {
      deliveryId: delivery.id,
      trigger: 'auto',
      retryDelaysSeconds: [4, 4],
    });
    await eventually(() => stack.models.WebhookDelivery.findByPk(delivery.id), (d) => d?.status === 'Retrying', 10_000);
    await worker.stop();
    const stoppedAt = performance.now();
    expect(receiver.at(path)).to.have.length(1);
    await new Promise((r) => setTimeout(r, 1000));
    worker = await startWorker(services, { background: false });
    try {
      expect(await client.workflow.getHandle(delivery.workflow_id).result()).to.equal('Delivered');
      expect(await stack.models.WebhookDelivery.findByPk(delivery.id)).to.deep.include({ status: 'Delivered', attempts: 2 });
    } finally {
      await worker.stop();
    }
    const requests = receiver.at(path);
    expect(requests).to.have.length(2);
    expect(requests[1]!.at - requests[0]!.at).to.be.at.least(3900);
    expect(requests[1]!.at).to.be.greaterThan(stoppedAt);
    expect(requests[0]!.body).to.equal(requests[1]!.body);
    const attempts = await stack.models.WebhookAttempt.findAll({ where: { delivery_id: delivery.id }, order: [['id', 'ASC']] });
    expect(attempts.map((a) => [a.attempt_key, a.response_status])).to.deep.equal([
      [`${delivery.workflow_id}#1`, 503],
      [`${delivery.workflow_id}#2`, 200],
    ]);
  });
});
