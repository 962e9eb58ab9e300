// Wires the parts (database, API, worker) the same way for bin/start, bin/api, bin/worker and the tests.
import { createActivities } from '../activities/index.ts';
import { createApp, type AppDeps } from '../api/app.ts';
import { listen, type RunningServer } from '../api/server.ts';
import { createModels, type Models } from '../models/index.ts';
import { migrateUp, pendingMigrations } from '../models/migrator.ts';
import type { Config } from './config.ts';
import { connectDatabase } from './db.ts';
import type { Logger } from './logger.ts';
import { probeConnection } from './temporal.ts';
import { createWorker, workerIdentity } from './worker.ts';
import { Client, Connection } from '@temporalio/client';
import { startOutboxDrainer } from '../services/webhooks/drain.ts';
import { drainMailQueue } from '../services/mail/queue.ts';
import { createMailTransport, type MailTransport } from '../services/mail/transport.ts';
import { startUnstartedSends } from '../services/sends/sweep.ts';

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
  const sequelize = await connectDatabase(config.database);
  try {
    if (mode === 'migrate') {
      await migrateUp(sequelize, config.database);
    } else {
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

export interface RunningApi extends RunningServer {
  stop(): Promise<void>;
}

export interface ApiOptions {
  host?: string;
  now?: AppDeps['now'];
  extraRoutes?: AppDeps['extraRoutes'];
  usageChecks?: AppDeps['usageChecks'];
}

export async function startApi(config: Config, logger: Logger, models: Models, temporalAddress: string, options: ApiOptions = {}): Promise<RunningApi> {
  const connection = probeConnection(temporalAddress);
  // Starts replays and test sends; dials on first use, so the API starts while Temporal is down.
  const clientConnection = Connection.lazy({ address: temporalAddress });
  const app = createApp({
    config,
    logger,
    models,
    temporal: { connection, namespace: config.temporal.namespace },
    workflows: { client: new Client({ connection: clientConnection, namespace: config.temporal.namespace }), taskQueue: config.temporal.taskQueue },
    ...(options.now ? { now: options.now } : {}),
    ...(options.extraRoutes ? { extraRoutes: options.extraRoutes } : {}),
    ...(options.usageChecks ? { usageChecks: options.usageChecks } : {}),
  });
  const server = await listen(app, config.port, options.host);
  return {
    ...server,
    stop: async () => {
      await server.close();
      await connection.close();
      await clientConnection.close();
    },
  };
}

export interface RunningWorker {
  /** Settles when the worker stops; rejects if it fails. */
  done: Promise<void>;
  stop(): Promise<void>;
}

export interface WorkerRunOptions {
  /** Run the outbox drainer (and the other background passes) beside the worker (default true); a test's extra worker may not. */
  drainOutbox?: boolean;
  now?: () => Date;
  /** Replaces the configured mail transport (tests that cut a delivery short). */
  mailTransport?: MailTransport;
}

/** The worker, and the outbox drainer that starts the delivery workflows it runs. */
export async function startWorker(config: Config, logger: Logger, models: Models, temporalAddress: string, options: WorkerRunOptions = {}): Promise<RunningWorker> {
  const now = options.now ?? (() => new Date());
  const mailTransport = options.mailTransport ?? createMailTransport(models, config.mail);
  const { worker, close } = await createWorker({
    address: temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: createActivities({
      models,
      logger,
      workerIdentity,
      webhooks: config.webhooks,
      mailTransport,
      mailFrom: config.mailFrom,
      publicBaseUrl: config.publicBaseUrl,
      now,
    }),
    logger,
  });
  const clientConnection = options.drainOutbox === false ? undefined : await Connection.connect({ address: temporalAddress });
  const target = clientConnection
    ? { client: new Client({ connection: clientConnection, namespace: config.temporal.namespace }), taskQueue: config.temporal.taskQueue }
    : undefined;
  const drainer = target
    ? startOutboxDrainer({
        models,
        logger,
        webhooks: config.webhooks,
        now,
        target,
        otherPasses: [
          () => startUnstartedSends(models, target),
          () =>
            drainMailQueue(models, mailTransport, config.mailFrom, now, (id, err) => logger.warn({ err, mailQueueId: id }, 'a queued service email could not be sent')),
        ],
      })
    : undefined;
  const done = worker.run().finally(close);
  return {
    done,
    stop: async () => {
      await drainer?.stop();
      await clientConnection?.close();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
      if (!options.mailTransport) mailTransport.close();
    },
  };
}
