// `npm run bench` (console): requests per second of the console's delivery-log page (GET /v2/console/webhooks/
// deliveries, 50 rows, HTML) for a signed-in owner of an account with BENCH_CONSOLE_DELIVERIES deliveries, as a
// ratio to the console API call returning the same page (GET /v2/console/api/deliveries?perPage=50), rounds
// alternated in one run against one server; the median ratio with its min and max (target ≥ 0.5). Settings:
// BENCH_CONSOLE_DELIVERIES (default 10,000), BENCH_SECONDS (per round, default 3), BENCH_ROUNDS (pairs of rounds,
// default 5), BENCH_CONCURRENCY (default 16), DATABASE_URL (default: a fresh SQLite file).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../api/app.ts';
import { DELIVERY_PAGE_ROWS } from '../api/console/pages/webhooks.ts';
import { listen } from '../api/server.ts';
import { openDatabase } from '../app/runtime.ts';
import { createServices } from '../app/services.ts';
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { probeConnection } from '../lib/temporal.ts';
import { createAccount } from '../services/accounts.ts';
import { deliveryWorkflowId } from '../workflows/webhook-delivery/lifecycle.ts';
import { setOwnerPassword, signedInPages } from '../test/helpers/console.ts';
import { alternatedRatios, freePort, requestRate } from './harness.ts';

const deliveries = Number(process.env.BENCH_CONSOLE_DELIVERIES ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CHUNK = 1000;
const PAGE = '/v2/console/webhooks/deliveries';
const API = `/v2/console/api/deliveries?perPage=${DELIVERY_PAGE_ROWS}`;

// A known port: the sign-in form's same-origin check compares the Origin with PUBLIC_BASE_URL.
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'cardsvc-bench-'));
const config = loadConfig({
  DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${join(dataDir, 'bench.sqlite')}`,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PORT: String(port),
  PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
});
const models = await openDatabase(config, 'migrate');
const { accountId } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-console-${Date.now()}@example.com`, plan: 'enterprise' });
const password = 'bench console password';
const email = await setOwnerPassword(models, accountId, password);

// Two endpoints as the service makes them (the ecard_shared one has no event type of its own), so the page's
// endpoint filter and the rows' URLs come from more than one.
const endpoints = [
  { event: 'ecard_shared', row: await models.WebhookEndpoint.create({ account_id: accountId, kind: 'ecard_shared', event_type: null, url: 'https://hooks.bench.example.com/shared', integration: false }) },
  { event: 'team_member_created', row: await models.WebhookEndpoint.create({ account_id: accountId, kind: 'member_change', event_type: 'team_member_created', url: 'https://hooks.bench.example.com/members', integration: false }) },
];

// The log as the drainer leaves it (an outbox event per delivery), written in chunks: most delivered, some failed.
const started = performance.now();
for (let i = 0; i < deliveries; i += CHUNK) {
  const at = new Date();
  const events = Array.from({ length: Math.min(CHUNK, deliveries - i) }, (_, j) => {
    const { event, row: endpoint } = endpoints[(i + j) % endpoints.length]!;
    const eventId = crypto.randomUUID();
    return { endpoint, row: { event_id: eventId, account_id: accountId, event_type: event, source: 'api', member_id: null, payload: JSON.stringify({ event_id: eventId, event_type: event }), occurred_at: at, drained_at: at } };
  });
  await models.OutboxEvent.bulkCreate(events.map((e) => e.row));
  // The outbox ids by event id (bulkCreate's returned ids are not reliable on every dialect).
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
const loadSeconds = (performance.now() - started) / 1000;

const services = createServices({ config, logger: createLogger(config), models });
const readinessProbe = probeConnection('127.0.0.1:1');
const server = await listen(createApp(services, { readinessProbe }), port, '127.0.0.1');
const { browser } = await signedInPages(server.url, email, password);
const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path}: status ${res.status}`);
  return body;
};

// Both answer the same page: the newest 50 deliveries, by id.
const pageIds = [...(await get(PAGE)).matchAll(/>Delivery (\d+)<\/a>/g)].map((m) => Number(m[1]));
const apiIds = (JSON.parse(await get(API)) as { data: Array<{ id: number }> }).data.map((d) => d.id);
if (pageIds.length !== Math.min(DELIVERY_PAGE_ROWS, deliveries) || pageIds.join() !== apiIds.join()) throw new Error(`the page shows ${pageIds.length} deliveries, the API ${apiIds.length}, not the same`);

console.log(`database ${config.database.dialect}, ${deliveries} deliveries (loaded in ${loadSeconds.toFixed(1)} s), pages of ${DELIVERY_PAGE_ROWS}, ${concurrency} concurrent clients, ${rounds} rounds of ${seconds} s each`);
const side = (name: string, path: string) => ({ name, rate: (roundSeconds: number) => requestRate({ url: `${server.url}${path}`, headers: { Cookie: cookie } }, roundSeconds, concurrency) });
// Warm-up of both (templates, statement caches, JIT) for one round's time.
await alternatedRatios('delivery-log page', side('page', PAGE), side('console API', API), { rounds, seconds, warmupSeconds: seconds, target: '≥ 0.5' });

await server.close();
await readinessProbe.close();
await services.close();
await models.sequelize.close();
