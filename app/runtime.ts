// Runs the parts (database, API, worker) the same way for bin/start, bin/api, bin/worker and the tests, each from
// the one services object of its process (app/services.ts).
import { createActivities } from '../activities/index.ts';
import { createApp, type AppOptions } from '../api/app.ts';
import { listen, type RunningServer } from '../api/server.ts';
import type { Config } from '../lib/config.ts';
import { connectDatabase, isDatabaseUnreachable, withoutStatementTimeout } from '../lib/db.ts';
import { probeConnection } from '../lib/temporal.ts';
import { createWorker, workerIdentity } from '../lib/worker.ts';
import { createModels, type Models } from '../models/index.ts';
import { migrateUp, pendingMigrations } from '../models/migrator.ts';
import { createKeyAuthenticator } from '../services/api-keys.ts';
import { createRateLimiter, type RateLimiter } from '../services/rate-limits.ts';
import { encryptPlaintextSecrets } from '../services/webhooks/secrets.ts';
import type { Services } from './services.ts';

/** `npm run api` and `npm run worker` run against an external Temporal server; only `npm start` embeds one. */
export function externalTemporalAddress(config: Config, part: 'API' | 'worker'): string {
  const address = config.temporal.address;
  if (address === undefined) {
    throw new Error(`TEMPORAL_ADDRESS is not set: the ${part} alone needs an external Temporal server (\`npm start\` runs an embedded one)`);
  }
  return address;
}

export class PendingMigrationsError extends Error {
  override name = 'PendingMigrationsError';
}

/** Connects; `migrate` applies pending migrations, `require-migrated` refuses to run while any are pending. */
export async function openDatabase(config: Config, mode: 'migrate' | 'require-migrated'): Promise<Models> {
  const forMigrations = withoutStatementTimeout(config.database);
  if (mode === 'migrate' && forMigrations !== config.database) {
    // Migrations on a connection of their own, without the statement timeout (see withoutStatementTimeout).
    const migrating = await connectDatabase(forMigrations);
    try {
      await migrateUp(migrating, config.database);
    } finally {
      await migrating.close();
    }
  }
  const sequelize = await connectDatabase(config.database);
  try {
    if (mode === 'migrate' && forMigrations === config.database) {
      await migrateUp(sequelize, config.database);
    } else if (mode === 'require-migrated') {
      const pending = await pendingMigrations(sequelize);
      if (pending.length > 0) {
        throw new PendingMigrationsError(`${pending.length} database migration(s) pending (${pending.join(', ')}): run \`npm run migrate\` first`);
      }
    }
  } catch (err) {
    await sequelize.close();
    throw err;
  }
  return createModels(sequelize);
}

function temporalAddressOf(services: Services, part: string): string {
  if (services.temporalAddress === undefined) throw new Error(`the ${part} needs a Temporal server address`);
  return services.temporalAddress;
}

/**
 * Seals webhook signing secrets still stored as plaintext (not a migration: the migrate job holds no key). An API
 * whose database is unreachable still starts (it answers 503 until the database is back): the secrets are read in
 * either form, and the next start of an API or a worker seals them.
 */
async function sealPlaintextSecrets(services: Services): Promise<void> {
  try {
    const sealed = await encryptPlaintextSecrets(services);
    if (sealed > 0) services.logger.info({ sealed }, 'webhook signing secrets encrypted at rest');
  } catch (err) {
    if (!isDatabaseUnreachable(err)) throw err;
    services.logger.warn({ err }, 'webhook signing secrets not sealed at start: the database is unreachable');
  }
}

export interface RunningApi extends RunningServer {
  stop(): Promise<void>;
}

export interface ApiOptions extends Omit<AppOptions, 'readinessProbe' | 'keys' | 'rateLimiter'> {
  host?: string;
  /** Replaces the database-backed limiter (the benchmark measures the API without it). */
  rateLimiter?: RateLimiter;
}

export async function startApi(services: Services, options: ApiOptions = {}): Promise<RunningApi> {
  await sealPlaintextSecrets(services);
  const probe = probeConnection(temporalAddressOf(services, 'API'));
  const { host, rateLimiter, ...appOptions } = options;
  // The API's own pieces: key authentication and the per-key rate limiter (their background writes only log).
  const onBackgroundError = (err: unknown) => services.logger.warn({ err }, 'background write failed');
  const limiter = rateLimiter ?? createRateLimiter(services.models.sequelize, services.now, onBackgroundError, { processes: services.config.rateLimitProcesses });
  const app = createApp(services, {
    ...appOptions,
    readinessProbe: probe,
    keys: createKeyAuthenticator(services, services.now, onBackgroundError),
    rateLimiter: limiter,
  });
  const server = await listen(app, services.config.port, host, services.config.keepAliveTimeoutMs);
  return {
    ...server,
    stop: async () => {
      await server.close();
      // The limiter's unused leased counts go back, so usage_this_hour counts only what this process served.
      await limiter.close();
      await probe.close();
    },
  };
}

export interface RunningWorker {
  /** Settles when the worker stops; rejects if it fails. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The worker (workflows and activities on the task queue; bulk batches on the bulk task queue, at most
 * BULK_CONCURRENCY at once) and, unless told otherwise (a test's extra worker), the process's background passes.
 */
export async function startWorker(services: Services, options: { background?: boolean } = {}): Promise<RunningWorker> {
  await sealPlaintextSecrets(services);
  const activities = createActivities(services, workerIdentity);
  const common = { address: temporalAddressOf(services, 'worker'), namespace: services.config.temporal.namespace, retentionDays: services.config.temporal.retentionDays, activities, logger: services.logger };
  const main = await createWorker({ ...common, taskQueue: services.config.temporal.taskQueue, workflowBundlePath: services.config.temporal.workflowBundlePath });
  const bulk = await createWorker({
    ...common,
    taskQueue: services.config.temporal.bulkTaskQueue,
    workflows: false,
    maxConcurrentActivities: services.config.bulk.concurrency,
  }).catch(async (err: unknown) => {
    await main.close();
    throw err;
  });
  const runsBackground = options.background !== false;
  if (runsBackground) services.background.start();
  const done = Promise.all([main.worker.run().finally(main.close), bulk.worker.run().finally(bulk.close)]).then(() => undefined);
  return {
    done,
    stop: async () => {
      if (runsBackground) await services.background.stop();
      for (const { worker } of [main, bulk]) if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
