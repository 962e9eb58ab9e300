// P5: webhook deliveries per second (the service's delivery workflow in the worker process: the attempt activity
// reads the delivery, endpoint and event, signs, POSTs through the guarded client and records the attempt; the
// finish activity settles the delivery) against a one-activity workflow doing one `fetch` of the same payload
// (bench/baseline-worker.ts, a bare worker process), both to the same loopback receiver, all of a round's
// workflows started at once. Deliveries are written as the drainer writes them (bench-side, outside the time).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceError } from '@temporalio/client';
import { createAccount } from '../services/accounts.ts';
import { attemptTimeoutSeconds } from '../services/webhooks/attempts.ts';
import { deliveryWorkflowId } from '../workflows/webhook-delivery/contract.ts';
import { startDeliveryWorkflow } from '../workflows/webhook-delivery/lifecycle.ts';
import { alternatedRounds, type Pair } from './harness.ts';
import { startChild, type BenchContext } from './stack.ts';

const TASK_QUEUE = 'bench-baseline';

/** A loopback receiver answering 200 to every POST, counting them. */
async function countingReceiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export const webhooksPair: Pair<BenchContext> = {
  name: 'p5-webhooks',
  async run(ctx) {
    const { models, services, client, config, settings } = ctx;
    const perRound = settings.quick ? 100 : 500;
    const warmup = Math.max(20, perRound / 10);
    const receiver = await countingReceiver();
    let pings = 0;
    const baselineWorker = await startChild('bench/baseline-worker.ts', { PATH: process.env.PATH, HOME: process.env.HOME, TEMPORAL_ADDRESS: services.temporalAddress!, BENCH_TASK_QUEUE: TASK_QUEUE }, ctx.logFile('baseline-worker.log'), () =>
      client.workflow.execute('fetchOnceWorkflow', { taskQueue: TASK_QUEUE, workflowId: `bench-p5-ready-${++pings}`, args: [`${receiver.url}/ready`, '{}'], workflowExecutionTimeout: '2 minutes' }),
    );
    try {
      const { accountId } = await createAccount(ctx, { name: 'Bench P5', ownerEmail: `bench-hooks-${Date.now()}@example.com`, plan: 'enterprise' });
      const endpoint = await models.WebhookEndpoint.create({ account_id: accountId, kind: 'member_change', event_type: 'team_member_created', url: `${receiver.url}/hook`, integration: false });
      const payload = (eventId: string, n: number) => JSON.stringify({ event_id: eventId, event_type: 'team_member_created', occurred_at: new Date().toISOString(), data: { member: { id: n, email: `m${n}@bench.example.com`, first_name: `M${n}`, last_name: 'Bench' } } });
      let sequence = 0;

      const deliveryRound = async (warm: boolean) => {
        const n = warm ? warmup : perRound;
        const at = new Date();
        const events = Array.from({ length: n }, () => {
          const eventId = crypto.randomUUID();
          return { event_id: eventId, account_id: accountId, event_type: 'team_member_created', source: 'api', member_id: null, payload: payload(eventId, ++sequence), occurred_at: at, drained_at: at };
        });
        await models.OutboxEvent.bulkCreate(events);
        const outbox = await models.OutboxEvent.findAll({ where: { event_id: events.map((e) => e.event_id) }, attributes: ['id', 'event_id'], raw: true });
        await models.WebhookDelivery.bulkCreate(outbox.map((o) => ({
          account_id: accountId, endpoint_id: endpoint.id, outbox_id: o.id, event_id: o.event_id, event_type: 'team_member_created', trigger: 'auto' as const,
          status: 'Pending' as const, workflow_id: deliveryWorkflowId(accountId, o.event_id, endpoint.id), workflow_started: true,
        })));
        const deliveries = await models.WebhookDelivery.findAll({ where: { event_id: events.map((e) => e.event_id) }, attributes: ['id', 'workflow_id'], raw: true });
        const before = receiver.received();
        const started = performance.now();
        await Promise.all(deliveries.map(async (d) => {
          const input = { deliveryId: d.id, trigger: 'auto' as const, retryDelaysSeconds: config.webhooks.retryDelaysSeconds, attemptTimeoutSeconds: attemptTimeoutSeconds(config.webhooks.timeoutMs) };
          // 500 starts at once can outlast the product's 5 s start deadline on a slow machine (a full run failed so
          // on 2026-11-27); the product's background pass would start such a delivery later, the bench again now.
          for (let attempt = 1; ; attempt++) {
            try {
              await startDeliveryWorkflow(services.workflows!, d.workflow_id, accountId, input);
              break;
            } catch (err) {
              if (attempt >= 3 || !(err instanceof ServiceError)) throw err;
            }
          }
          const status = await client.workflow.getHandle<() => Promise<string>>(d.workflow_id).result();
          if (status !== 'Delivered') throw new Error(`P5: delivery ${d.id} ended ${status}`);
        }));
        const seconds = (performance.now() - started) / 1000;
        if (receiver.received() - before !== n) throw new Error(`P5: the receiver got ${receiver.received() - before} requests for ${n} deliveries`);
        return n / seconds;
      };
      const fetchRound = async (warm: boolean) => {
        const n = warm ? warmup : perRound;
        const bodies = Array.from({ length: n }, () => payload(crypto.randomUUID(), ++sequence));
        const before = receiver.received();
        const started = performance.now();
        await Promise.all(bodies.map((body) => client.workflow.execute('fetchOnceWorkflow', { taskQueue: TASK_QUEUE, workflowId: `bench-p5-fetch-${++sequence}`, args: [`${receiver.url}/fetch`, body] })));
        const seconds = (performance.now() - started) / 1000;
        if (receiver.received() - before !== n) throw new Error(`P5: the receiver got ${receiver.received() - before} requests for ${n} fetches`);
        return n / seconds;
      };
      const figures = await alternatedRounds('P5', { name: 'webhook delivery workflow', round: deliveryRound }, { name: 'one-fetch workflow', round: fetchRound }, settings, 'workflows/s');
      return [{ name: 'p5-webhooks', compares: `${perRound} webhook deliveries vs ${perRound} one-activity workflows doing one fetch`, target: 'none set (reported)', unit: 'workflows/s', ...figures, notes: { workflowsPerRound: perRound } }];
    } finally {
      await baselineWorker.stop();
      await receiver.close();
    }
  },
};
