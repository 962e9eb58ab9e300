// P10: requests per second of the console's delivery-log page (GET /v2/console/webhooks/deliveries, 50 rows, HTML)
// for a signed-in owner of an account with many webhook deliveries, as a ratio to the console API call returning
// the same page (GET /v2/console/api/deliveries?perPage=50), both through the API process, rounds alternated.
import { DELIVERY_PAGE_ROWS } from '../api/console/webhooks/pages.ts';
import { createAccount } from '../services/accounts.ts';
import { deliveryWorkflowId } from '../workflows/webhook-delivery/contract.ts';
import { setOwnerPassword, signedInPages } from '../test/helpers/console.ts';
import { alternatedRates, type Pair } from './harness.ts';
import { getRate } from './load.ts';
import type { BenchContext } from './stack.ts';

const CHUNK = 1000;
const PAGE = '/v2/console/webhooks/deliveries';
const API = `/v2/console/api/deliveries?perPage=${DELIVERY_PAGE_ROWS}`;

export const consolePair: Pair<BenchContext> = {
  name: 'p10-console',
  async run(ctx) {
    const { models, settings, api } = ctx;
    const deliveries = settings.quick ? 500 : 10_000;
    const { accountId } = await createAccount(ctx, { name: 'Bench P10', ownerEmail: `bench-console-${Date.now()}@example.com`, plan: 'enterprise' });
    const password = 'bench console password';
    const email = await setOwnerPassword(models, accountId, password);
    // Two endpoints as the service makes them, so the page's endpoint filter and the rows' URLs come from more than one.
    const endpoints = [
      { event: 'ecard_shared', row: await models.WebhookEndpoint.create({ account_id: accountId, kind: 'ecard_shared', event_type: null, url: 'https://hooks.bench.example.com/shared', integration: false }) },
      { event: 'team_member_created', row: await models.WebhookEndpoint.create({ account_id: accountId, kind: 'member_change', event_type: 'team_member_created', url: 'https://hooks.bench.example.com/members', integration: false }) },
    ];
    // The log as the drainer leaves it (an outbox event per delivery), written in chunks: most delivered, some failed.
    for (let i = 0; i < deliveries; i += CHUNK) {
      const at = new Date();
      const events = Array.from({ length: Math.min(CHUNK, deliveries - i) }, (_, j) => {
        const { event, row: endpoint } = endpoints[(i + j) % endpoints.length]!;
        const eventId = crypto.randomUUID();
        return { endpoint, row: { event_id: eventId, account_id: accountId, event_type: event, source: 'api', member_id: null, payload: JSON.stringify({ event_id: eventId, event_type: event }), occurred_at: at, drained_at: at } };
      });
      await models.OutboxEvent.bulkCreate(events.map((e) => e.row));
      const outbox = await models.OutboxEvent.findAll({ where: { event_id: events.map((e) => e.row.event_id) }, attributes: ['id', 'event_id'], raw: true });
      const outboxId = new Map(outbox.map((o) => [o.event_id, o.id]));
      await models.WebhookDelivery.bulkCreate(
        events.map(({ endpoint, row }, j) => {
          const failed = (i + j) % 10 === 0;
          return {
            account_id: accountId, endpoint_id: endpoint.id, outbox_id: outboxId.get(row.event_id)!, event_id: row.event_id, event_type: row.event_type, trigger: 'auto' as const,
            status: failed ? ('Failed' as const) : ('Delivered' as const), error: failed ? 'HTTP 500 from the endpoint' : null, attempts: failed ? 6 : 1,
            workflow_id: deliveryWorkflowId(accountId, row.event_id, endpoint.id), workflow_started: true, finished_at: at, created_at: at, updated_at: at,
          };
        }),
      );
    }
    const { browser } = await signedInPages(api.url, email, password);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const get = async (path: string) => {
      const res = await fetch(`${api.url}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`P10 ${path}: status ${res.status}`);
      return body;
    };
    // Both answer the same page: the newest 50 deliveries, by id.
    const pageIds = [...(await get(PAGE)).matchAll(/>Delivery (\d+)<\/a>/g)].map((m) => Number(m[1]));
    const apiIds = (JSON.parse(await get(API)) as { data: Array<{ id: number }> }).data.map((d) => d.id);
    if (pageIds.length !== Math.min(DELIVERY_PAGE_ROWS, deliveries) || pageIds.join() !== apiIds.join()) throw new Error(`P10: the page shows ${pageIds.length} deliveries, the API ${apiIds.length}, not the same`);
    const side = (path: string) => (seconds: number) => getRate(`${api.url}${path}`, seconds, settings.concurrency, { Cookie: cookie });
    const figures = await alternatedRates('P10', { name: 'console page', rate: side(PAGE) }, { name: 'console API', rate: side(API) }, settings);
    return [{ name: 'p10-console', compares: 'console delivery-log page vs its console API call', target: '≥ 0.5', unit: 'req/s', ...figures, notes: { deliveries, rows: DELIVERY_PAGE_ROWS, concurrency: settings.concurrency } }];
  },
};
