// The running service for tests: migrated database, a worker on the suite's Temporal server, the API on a random port.
import { loadConfig, type Config } from '../../lib/config.ts';
import { createLogger } from '../../lib/logger.ts';
import { openDatabase, startApi, startWorker } from '../../app/runtime.ts';
import { createServices, type Services, type ServicesInput } from '../../app/services.ts';
import type { Models } from '../../models/index.ts';
import { onSuiteEnd } from './cleanup.ts';
import { fixtureRoutes } from './fixture-routes.ts';
import { suiteDatabaseUrl } from './database.ts';
import { baseEnv, tempDir } from './env.ts';
import { freePort } from './ports.ts';
import { testSmtpServer } from './smtp.ts';
import { testTemporal } from './temporal.ts';
import { workflowBundleFile } from './workflow-bundle.ts';

export interface TestStack {
  config: Config;
  models: Models;
  /** The services of the stack's API and worker (the process's one object, as in `npm start`). */
  services: Services;
  /** Base URL of the API, e.g. http://127.0.0.1:54321 */
  url: string;
  temporalAddress: string;
  taskQueue: string;
  /** Stops its API, worker and background passes now (else at the suite's end); idempotent. */
  stop(): Promise<void>;
}

export interface ExtraApp {
  url: string;
  stop(): Promise<void>;
}

/** Another API instance on the suite's database (own clock, limits or routes); stopped after the run. */
export async function extraApp(options: { now?: () => Date; env?: Record<string, string> } = {}): Promise<ExtraApp> {
  const config = await testConfig(options.env);
  const services = createServices({
    config,
    logger: createLogger(config),
    models: await testModels(),
    temporalAddress: config.temporal.address,
    ...(options.now ? { now: options.now } : {}),
  });
  const api = await startApi(services, { host: '127.0.0.1', extraRoutes: fixtureRoutes });
  onSuiteEnd(async () => {
    await api.stop();
    await services.close();
  });
  return api;
}

/** A services object (app/services.ts) on the given config and the suite's database and Temporal server; closed after the run. */
export async function testServices(config: Config, input: Partial<Omit<ServicesInput, 'config'>> = {}): Promise<Services> {
  const services = createServices({ config, logger: createLogger(config), models: await testModels(), temporalAddress: config.temporal.address, ...input });
  onSuiteEnd(() => services.close());
  return services;
}

/** The suite's environment with the given overrides, pointed at the suite's database and Temporal server. */
export async function testConfig(overrides: Record<string, string> = {}): Promise<Config> {
  return loadConfig(await testEnv(overrides));
}

/** The variables behind testConfig, for a child process (`node bin/worker.ts`) of the same setup. */
export async function testEnv(overrides: Record<string, string> = {}): Promise<Record<string, string | undefined>> {
  // A known free port, so PUBLIC_BASE_URL (and the media URLs built on it) points at this instance.
  const port = String(await freePort());
  return baseEnv({
    DATABASE_URL: suiteDatabaseUrl,
    TEMPORAL_ADDRESS: (await testTemporal()).address,
    TEMPORAL_TASK_QUEUE: `cardsvc-test-${process.pid}`,
    WORKFLOW_BUNDLE_PATH: await workflowBundleFile(),
    DATA_DIR: tempDir(),
    PORT: port,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    STRICT_RESPONSES: 'true',
    // Webhooks: loopback receivers, a short schedule (the dev server fires timers on whole seconds). The background
    // sweep each second, as in the drills: what this process commits nudges it at once, and the sweep is for the
    // rest; at 200 ms an idle stack's sweeps alone kept 9 % of a core busy in every test process of CI's lanes.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS: '1,2',
    WEBHOOK_TIMEOUT_MS: '1500',
    OUTBOX_SWEEP_MS: '1000',
    // Outcome subscriptions read at every transition: a test subscribes and expects the next transition's event (the
    // process's short cache of them has its own test, test/webhooks/outcome-subscriptions-cache.test.ts).
    OUTCOME_SUBSCRIPTIONS_CACHE_MS: '0',
    // Emails go to the suite's in-process SMTP server; email-now calls wait for the dispatch.
    SMTP_URL: (await testSmtpServer()).url,
    SEND_WAIT_SECONDS: '10',
    SEND_NOW_WINDOW_SECONDS: '1',
    // The Schedules reconciler runs at a worker's start only: tests that need it call it, and a pass in the middle
    // of the run would bring back Schedules of automations other tests left behind.
    AUTOMATION_RECONCILE_SECONDS: '86400',
    // Rewards: a fixed test key (tests that need no key, or the key file, override it), a short provider timeout.
    REWARDS_ENCRYPTION_KEY: TEST_REWARDS_KEY,
    REWARDS_PROVIDER_TIMEOUT_SECONDS: '1',
    // The public pages' per-IP limits, raised: every test's requests come from 127.0.0.1 (test/http/limits.test.ts tests them).
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
    PUBLIC_RATE_LIMIT_POSTS_PER_MINUTE: '1000000',
    // Test pages that embed a widget are served over http from loopback ports.
    WIDGET_ALLOW_HTTP_ORIGINS: 'true',
    ...overrides,
  });
}

/** The suite's rewards key (32 bytes, base64). */
export const TEST_REWARDS_KEY = Buffer.alloc(32, 7).toString('base64');

let sharedModels: Promise<Models> | undefined;

/** The suite's database, migrated, without starting Temporal. */
export function testModels(): Promise<Models> {
  sharedModels ??= (async () => {
    const opened = await openDatabase(loadConfig(baseEnv({ DATABASE_URL: suiteDatabaseUrl })), 'migrate');
    onSuiteEnd(() => opened.sequelize.close());
    return opened;
  })();
  return sharedModels;
}

let stack: Promise<TestStack> | undefined;

export function testStack(): Promise<TestStack> {
  stack ??= startStack();
  return stack;
}

/** A stack like testStack's on the given environment overrides (the fuzzer's raised limits); stopped after the run. */
export async function startStack(overrides: Record<string, string> = {}): Promise<TestStack> {
  const config = await testConfig(overrides);
  const logger = createLogger(config);
  const models = await testModels();
  const address = config.temporal.address!;
  const services = createServices({ config, logger, models, temporalAddress: address });
  const worker = await startWorker(services);
  const api = await startApi(services, { host: '127.0.0.1', extraRoutes: fixtureRoutes });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await api.stop();
      await worker.stop();
      await services.close();
    })());
  onSuiteEnd(stop);
  return { config, models, services, url: api.url, temporalAddress: address, taskQueue: config.temporal.taskQueue, stop };
}
