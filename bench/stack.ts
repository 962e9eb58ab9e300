// The stack every pair of `npm run bench` runs on: its own MariaDB database, a file-backed Temporal dev server,
// the worker and the API as child processes (bin/worker.ts, bin/api.ts) with limits raised by configuration, an
// SMTP server that counts, and the service's parts in this process for seeding and starting workflows.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@temporalio/client';
import { createConnection } from 'mysql2/promise';
import { openDatabase } from '../app/runtime.ts';
import { createServices, type Services } from '../app/services.ts';
import { loadConfig, type Config } from '../lib/config.ts';
import { startEmbeddedTemporal } from '../lib/embedded-temporal.ts';
import { createLogger } from '../lib/logger.ts';
import { packageRoot } from '../lib/paths.ts';
import { requireDataKeys } from '../lib/data-key.ts';
import type { DevServer } from '../lib/temporal-dev-server.ts';
import type { Models } from '../models/index.ts';
import { PING_WORKFLOW } from '../workflows/ping/contract.ts';
import { countingSmtp, freePort, startApiProcess, type BenchSettings, type CountingSmtp, type NodeProcess } from './harness.ts';

export const DEFAULT_DATABASE_URL = 'mysql://root@127.0.0.1:3306/cardsvc_bench_run';
const SMTP_POOL_SIZE = 5;
// Far above what any pair sends: every request and email is counted, none refused.
const RAISED = 'free=1000000000/1000000000,pro=1000000000/1000000000,enterprise=1000000000/1000000000';
const PLENTY = 'free=1000000000,pro=1000000000,enterprise=1000000000';

export interface BenchContext {
  settings: BenchSettings;
  dataDir: string;
  databaseUrl: string;
  /** What the API and the worker read (and this process's config is loaded from). */
  env: Record<string, string>;
  config: Config;
  models: Models;
  /** The service's parts in this process: a Temporal client, no worker, no background passes. */
  services: Services;
  client: Client;
  /** bin/api.ts; PUBLIC_BASE_URL is its own URL (the console's same-origin check). */
  api: NodeProcess;
  /**
   * Replaces `api` with a new process on the same port, so a pair measures the API with only its own history, as
   * its baselines' processes are: after P12's widget sends the API spent three times the share of its busy time in
   * GC on P6's requests as a fresh one did, its live heap unchanged (docs/performance.md, "Round five").
   */
  freshApi(): Promise<void>;
  /** The SMTP server the worker's pool of SMTP_POOL_SIZE sends to. */
  smtp: CountingSmtp;
  smtpPoolSize: number;
  logFile(name: string): string;
  close(): Promise<void>;
}

/** A fresh database of the harness's own (its name must start with cardsvc_bench: it is dropped first). */
async function freshDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  if (parsed.protocol !== 'mysql:') throw new Error(`the bench runs on MariaDB/MySQL: DATABASE_URL ${url} is not mysql://`);
  if (!/^cardsvc_bench\w*$/.test(name)) throw new Error(`the bench drops and recreates its database: give it one named cardsvc_bench… (got ${name || 'none'})`);
  parsed.pathname = '/';
  const connection = await createConnection({ uri: parsed.toString() });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
}

export interface WorkerProcess {
  stop(): Promise<void>;
}

/** `node [nodeArgs] --import tsx <script>` with `env`, its output in `logFile`; resolved once `ready` resolves, rejected if it exits first. */
export async function startChild(script: string, env: Record<string, string | undefined>, logFile: string, ready: () => Promise<unknown>, nodeArgs: string[] = []): Promise<WorkerProcess> {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { cwd: packageRoot, env, stdio: ['ignore', log, log] });
  closeSync(log);
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(String(signal ?? code))));
  void exited.then(() => process.off('exit', orphaned));
  const failed = exited.then((how) => {
    throw new Error(`${script} exited (${how}) before it was ready:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
  });
  try {
    await Promise.race([ready(), failed]);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  failed.catch(() => undefined);
  return {
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Starts everything; `progress` hears each step. */
export async function startBenchStack(settings: BenchSettings, progress: (line: string) => void): Promise<BenchContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cardsvc-bench-'));
  const logFile = (name: string) => join(dataDir, name);
  const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const stops: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(`bench: stopping: ${(err as Error).message}`));
  };
  try {
    await freshDatabase(databaseUrl);
    const smtp = await countingSmtp();
    stops.push(() => smtp.close());
    const apiPort = await freePort();
    // A workflow bundle made once for this code (CI's WORKFLOW_BUNDLE_PATH) spares the worker its own bundling.
    const base = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...(process.env.TEMPORAL_CLI_PATH ? { TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH } : {}),
      ...(process.env.WORKFLOW_BUNDLE_PATH ? { WORKFLOW_BUNDLE_PATH: process.env.WORKFLOW_BUNDLE_PATH } : {}),
    };
    const search = loadConfig({ ...base, DATA_DIR: dataDir }).temporal;
    // File-backed (WAL, as devServerArgs sets it), as a single-machine deployment runs it.
    const temporal: DevServer = await startEmbeddedTemporal({
      search, progress, port: await freePort(), uiPort: undefined, dbFile: join(dataDir, 'temporal.db'), pidFile: undefined, namespace: 'default', env: search.childEnv,
    });
    stops.push(() => temporal.stop());
    const env: Record<string, string> = {
      ...base,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      TEMPORAL_ADDRESS: temporal.address,
      PORT: String(apiPort),
      PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
      REWARDS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      RATE_LIMITS: RAISED,
      PLAN_EMAILS: PLENTY,
      PLAN_SEATS: PLENTY,
      // The public pages' per-address limits (the card page of P13 is GET from one address).
      PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000',
      PUBLIC_RATE_LIMIT_POSTS_PER_MINUTE: '1000000000',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_POOL_SIZE: String(SMTP_POOL_SIZE),
      // The webhook pair's receiver is on loopback.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    };
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
    progress(`database ${databaseUrl}: migrating`);
    const models = await openDatabase(config, 'migrate');
    stops.push(() => models.sequelize.close());
    const services = createServices({ config, logger: createLogger(config), models, temporalAddress: temporal.address, dataKeys: requireDataKeys(config, 'the bench') });
    stops.push(() => services.close());
    const client = services.workflows!.client;
    progress('worker process: bundling the workflows');
    let pings = 0;
    // BENCH_WORKER_CPU_PROF=<dir> profiles the worker the same way (its bulk batches: P4, P8).
    const workerProfileDir = process.env.BENCH_WORKER_CPU_PROF;
    const workerArgs = workerProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(workerProfileDir)}`] : [];
    const worker = await startChild(
      'bin/worker.ts',
      { ...env, LOG_LEVEL: 'warn' },
      logFile('worker.log'),
      () => client.workflow.execute(PING_WORKFLOW, { taskQueue: config.temporal.taskQueue, workflowId: `bench-ready-${++pings}`, args: ['ready'], workflowExecutionTimeout: '2 minutes' }),
      workerArgs,
    );
    stops.push(() => worker.stop());
    progress('API process');
    // Log level info to a file, as production runs it; BENCH_CPU_PROF=<dir> profiles it (written when it stops).
    const profileDir = process.env.BENCH_CPU_PROF;
    const startApi = () => startApiProcess(env, { logFile: logFile('api.log'), port: apiPort, nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [] });
    const context: BenchContext = {
      settings, dataDir, databaseUrl, env, config, models, services, client, api: await startApi(), smtp, smtpPoolSize: SMTP_POOL_SIZE, logFile, close,
      freshApi: async () => {
        await context.api.stop();
        context.api = await startApi();
      },
    };
    stops.push(() => context.api.stop());
    return context;
  } catch (err) {
    await close();
    throw err;
  }
}
