// One drill's own service: a MariaDB database, a file-backed Temporal dev server, the API and workers as child
// processes (`bin/api.ts`, `bin/worker.ts`) with shrunk timeouts, the suite's SMTP server and hook receiver; and the
// checks every drill passes (at most one email per recipient, a webhook per event with a stable id, everything final).
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { createConnection } from 'mysql2/promise';
import { Op } from 'sequelize';
import { openDatabase } from '../../app/runtime.ts';
import { createServices, type Services } from '../../app/services.ts';
import { loadConfig } from '../../lib/config.ts';
import { startEmbeddedTemporal } from '../../lib/embedded-temporal.ts';
import { createLogger } from '../../lib/logger.ts';
import { killGroup } from '../../lib/process-group.ts';
import type { DevServer } from '../../lib/temporal-dev-server.ts';
import type { Models } from '../../models/index.ts';
import { apiClient, newAccount, type ApiClient, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/ports.ts';
import { testReceiver, type Receiver } from '../helpers/receiver.ts';
import { testSmtpServer, type ReceivedMail, type SmtpTestServer } from '../helpers/smtp.ts';
import { workflowBundleFile } from '../helpers/workflow-bundle.ts';
import { expectOncePerAddress, startServiceChild, startWorkerChild, type WorkerChild } from '../helpers/worker-child.ts';

/** The drills' MariaDB database, made afresh once per run (DRILLS_DATABASE_URL overrides it). */
export const DRILLS_DATABASE_URL = process.env.DRILLS_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/cardsvc_drills';
const REWARDS_KEY = Buffer.alloc(32, 9).toString('base64');

const databases = new Map<string, Promise<Models>>();

/** A drill database (the drills' own by default), dropped, created and migrated on first use; read directly (never through a proxy). */
export function drillModels(databaseUrl = DRILLS_DATABASE_URL): Promise<Models> {
  let database = databases.get(databaseUrl);
  if (!database) {
    database = (async () => {
      const name = new URL(databaseUrl).pathname.slice(1);
      const server = new URL(databaseUrl);
      server.pathname = '/';
      const admin = await createConnection({ uri: server.toString() });
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await admin.end();
      const models = await openDatabase(loadConfig(baseEnv({ DATABASE_URL: databaseUrl })), 'migrate');
      onSuiteEnd(() => models.sequelize.close());
      return models;
    })();
    databases.set(databaseUrl, database);
  }
  return database;
}

export interface DrillTemporal {
  address: string;
  /** SIGKILL to the server's process group; the file stays. */
  kill(): Promise<void>;
  /** A new server on the same port and file. */
  restart(): Promise<void>;
}

/** A file-backed dev server of the drill's own (WAL, as the bench and `npm start` run it). */
async function startTemporal(): Promise<DrillTemporal> {
  const config = loadConfig(baseEnv({ TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH }));
  const port = await freePort();
  const dbFile = join(tempDir('cardsvc-drill-temporal-'), 'temporal.sqlite');
  const start = () =>
    startEmbeddedTemporal({
      search: config.temporal,
      progress: (line) => console.error(line),
      port,
      uiPort: undefined,
      dbFile,
      pidFile: undefined,
      namespace: 'default',
      env: config.temporal.childEnv,
    });
  let server: DevServer = await start();
  onSuiteEnd(() => server.stop());
  // A drill that ends abruptly leaves no dev server behind (exit handlers run synchronously: the signal alone).
  process.once('exit', () => {
    try {
      if (server.pid) process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  return {
    address: server.address,
    async kill() {
      if (server.pid) await killGroup(server.pid);
    },
    async restart() {
      server = await start();
    },
  };
}

export interface Drill {
  /** The drill's direct view of the database. */
  models: Models;
  temporal: DrillTemporal;
  /** A Temporal client on the drill's server. */
  client: Client;
  smtp: SmtpTestServer;
  receiver: Receiver;
  /** The children's environment. */
  env: Record<string, string | undefined>;
  /** The API child's base URL. */
  url: string;
  api: WorkerChild;
  /** Starts another worker child on the drill's environment (plus overrides). */
  startWorker(overrides?: Record<string, string>): WorkerChild;
  /** Services in this process on the drill's Temporal server and task queues (no background passes), for set-up only. */
  services(): Services;
  /** A fresh pro account with a widget, an eCard and the ecard_shared URL on its own receiver path. */
  newTenant(name: string): Promise<Tenant>;
}

/** A tenant of the drill: its account, eCard and receiver path, and the key API with its live key (`api`, `ok`). */
export interface Tenant extends Pick<ApiClient, 'api' | 'ok'> {
  account: TestAccount;
  ecardId: number;
  /** The receiver path its ecard_shared deliveries go to. */
  hookPath: string;
}

/** Shrunk timeouts (whole seconds where Temporal times them): the heartbeat, webhook retries, sweeps, statements. */
const SHRUNK = {
  ACTIVITY_HEARTBEAT_SECONDS: '2',
  WEBHOOK_RETRY_DELAYS: '1,1,2,2,4,4',
  // Roomy: a receiver's 200 that reaches a starved worker after the timeout is an attempt failed and retried (a
  // second request), and the drills count requests. The stalled-receiver drill sets its own 2 s.
  WEBHOOK_TIMEOUT_MS: '10000',
  OUTBOX_SWEEP_MS: '1000',
  SEND_WAIT_SECONDS: '0',
  SEND_NOW_WINDOW_SECONDS: '1',
  REWARDS_PROVIDER_TIMEOUT_SECONDS: '1',
  // A stalled database answers 503 after 2 s, within the drill's 5 s wait for an answer.
  DATABASE_STATEMENT_TIMEOUT_MS: '2000',
};

/** Waits until the API child's /readyz answers 200 (its database and Temporal namespace both reachable). */
export async function waitReady(url: string, child: WorkerChild, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.child.exitCode !== null || child.child.signalCode !== null) throw new Error(`the API exited during start-up:\n${child.output()}`);
    const status = await fetch(`${url}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`the API was not ready after ${timeoutMs} ms:\n${child.output()}`);
    await sleep(250);
  }
}

let tenants = 0;

/** A fresh pro account with a widget, an eCard and the ecard_shared URL on its own receiver path, through the API at `url`. */
export async function newTenant(models: Models, url: string, receiver: Receiver, name: string): Promise<Tenant> {
  const account = await newAccount(models, 'pro');
  const widget = await insertWidget(models, account.accountId);
  const ecard = await insertEcard(models, account.accountId, widget.id);
  const hookPath = `/drill-${process.pid}-${++tenants}-${name}`;
  const { api, ok } = apiClient(url, account.liveKey);
  await ok('POST', '/webhook/ecard-shared-url', { url: `${receiver.url}${hookPath}` });
  return { account, ecardId: ecard.id, hookPath, api, ok };
}

const began = Date.now();
/** A progress line on stderr when DRILLS_VERBOSE is set (where a slow or stuck drill spends its time). */
export function step(line: string): void {
  if (process.env.DRILLS_VERBOSE) console.error(`[drill +${((Date.now() - began) / 1000).toFixed(1)}s] ${line}`);
}

/** The children's environment: the database, Temporal, the SMTP server, the API's port, shrunk timeouts, `settings` last. */
export async function drillEnv(o: { databaseUrl: string; temporalAddress: string; port: number; smtp: SmtpTestServer; settings?: Record<string, string> | undefined }): Promise<Record<string, string | undefined>> {
  return baseEnv({
    LOG_LEVEL: 'warn',
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: o.temporalAddress,
    TEMPORAL_TASK_QUEUE: `drill-${process.pid}`,
    // Every worker child loads one bundle instead of bundling the workflows at its own start (seconds of CPU each).
    WORKFLOW_BUNDLE_PATH: await workflowBundleFile(),
    DATA_DIR: tempDir('cardsvc-drill-data-'),
    PORT: String(o.port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${o.port}`,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SMTP_URL: o.smtp.url,
    REWARDS_ENCRYPTION_KEY: REWARDS_KEY,
    // Per-minute limits out of the way: a drill's burst of requests is not what it tests.
    RATE_LIMITS: 'free=100000/1000000,pro=100000/1000000,enterprise=100000/1000000',
    ...SHRUNK,
    ...o.settings,
  });
}

/** Services in this process on the children's environment (no background passes), for set-up only. */
export function servicesOn(env: Record<string, string | undefined>, models: Models, temporalAddress: string): Services {
  const config = loadConfig(env);
  const made = createServices({ config, logger: createLogger(config), models, temporalAddress });
  onSuiteEnd(() => made.close());
  return made;
}

/**
 * Starts a drill: its dev server and API child (no worker: each drill starts its own). `databaseUrl` points the
 * children elsewhere (a proxy); `settings` override the children's environment.
 */
export async function startDrill(options: { databaseUrl?: string; settings?: Record<string, string> } = {}): Promise<Drill> {
  const models = await drillModels();
  step('database ready');
  const smtp = await testSmtpServer();
  const receiver = await testReceiver();
  const temporal = await startTemporal();
  step('dev server ready');
  const port = await freePort();
  const env = await drillEnv({ databaseUrl: options.databaseUrl ?? DRILLS_DATABASE_URL, temporalAddress: temporal.address, port, smtp, settings: options.settings });
  const api = startServiceChild('bin/api.ts', env);
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, api);
  step('API ready');
  const connection = await Connection.connect({ address: temporal.address });
  onSuiteEnd(() => connection.close());
  let services: Services | undefined;
  const drill: Drill = {
    models,
    temporal,
    client: new Client({ connection, namespace: 'default' }),
    smtp,
    receiver,
    env,
    url,
    api,
    startWorker: (overrides = {}) => startWorkerChild({ ...env, ...overrides }),
    services: () => (services ??= servicesOn({ ...env, DATABASE_URL: DRILLS_DATABASE_URL }, models, temporal.address)),
    newTenant: (name) => newTenant(models, url, receiver, name),
  };
  return drill;
}

/** Stops children gracefully (SIGTERM) and waits for them; ones already dead are skipped. */
export async function stopChildren(...children: Array<WorkerChild | undefined>): Promise<void> {
  for (const c of children) if (c && c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGTERM');
  for (const c of children) if (c) await c.exited;
}

/** Emails to one domain as they arrive (from now on). */
export function mailsTo(smtp: SmtpTestServer, domain: string): { received: ReceivedMail[]; stop: () => void } {
  const received: ReceivedMail[] = [];
  const stop = smtp.onMessage((mail) => {
    if (mail.to[0]?.endsWith(`@${domain}`)) received.push(mail);
  });
  return { received, stop };
}

const FINAL_SEND = ['sent', 'failed', 'canceled'];
const FINAL_DELIVERY = ['Delivered', 'Failed'];

/** Waits (in whole seconds) until every send, recipient, campaign and webhook delivery of the account has ended. */
export async function settled(models: Models, accountId: number, timeoutMs = 90_000): Promise<void> {
  const open = async () => {
    const sends = await models.Send.count({ where: { account_id: accountId, status: { [Op.notIn]: FINAL_SEND } } });
    // A share link's recipient has no email to end: only emailed recipients count.
    const sendIds = (await models.Send.findAll({ attributes: ['id'], where: { account_id: accountId, mode: { [Op.ne]: 'share' } }, raw: true })).map((s) => s.id);
    const recipients = await models.SendRecipient.count({ where: { status: 'pending', send_id: sendIds } });
    const campaigns = await models.Campaign.count({ where: { account_id: accountId, status: { [Op.notIn]: ['sent', 'failed', 'canceled', 'draft'] } } });
    const events = await models.OutboxEvent.count({ where: { account_id: accountId, drained_at: { [Op.is]: null } } });
    const deliveries = await models.WebhookDelivery.count({ where: { account_id: accountId, status: { [Op.notIn]: FINAL_DELIVERY } } });
    return { sends, recipients, campaigns, events, deliveries };
  };
  step('waiting for everything to settle');
  const left = await eventually(open, (o) => Object.values(o).every((n) => n === 0), timeoutMs, 1000);
  step(`settled: ${JSON.stringify(left)}`);
  const stuck = left.deliveries
    ? await models.WebhookDelivery.findAll({ attributes: ['id', 'status', 'attempts', 'workflow_id', 'workflow_started', 'created_at', 'updated_at'], where: { account_id: accountId, status: { [Op.notIn]: FINAL_DELIVERY } }, raw: true })
    : [];
  expect(left, `still open ${JSON.stringify(stuck)}`).to.deep.equal({ sends: 0, recipients: 0, campaigns: 0, events: 0, deliveries: 0 });
}

/**
 * The pass rule: nobody got two emails; every event of the account reached its receiver path at least once under
 * its own id (and nothing under an id the account never recorded); every delivery Delivered.
 */
export async function expectPass(models: Models, tenant: Tenant, receiver: Receiver, received: readonly ReceivedMail[]): Promise<void> {
  expectOncePerAddress(received);
  const events = await models.OutboxEvent.findAll({ attributes: ['event_id'], where: { account_id: tenant.account.accountId, event_type: 'ecard_shared' }, raw: true });
  const ids = new Set(events.map((e) => e.event_id));
  const seen = new Set(receiver.at(tenant.hookPath).map((r) => String(r.headers['x-svc-event-id'])));
  expect([...ids].filter((id) => !seen.has(id)), 'events never delivered').to.deep.equal([]);
  expect([...seen].filter((id) => !ids.has(id)), 'deliveries under an unknown event id').to.deep.equal([]);
  const deliveries = await models.WebhookDelivery.findAll({ attributes: ['event_id', 'status'], where: { account_id: tenant.account.accountId }, raw: true });
  expect(deliveries.filter((d) => d.status !== 'Delivered'), 'deliveries not Delivered').to.deep.equal([]);
}
