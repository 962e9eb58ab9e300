// The real Temporal server (not the CLI's dev server) as production runs it: `go.temporal.io/server` built by the
// project's Go builder, its persistence and visibility on PostgreSQL (the `postgres12` plugin), the schemas made by
// its own schema tool, every service (frontend, history, matching, worker) in one process group. The topology test
// and bench P15 run it; operators run the same binaries (docs/operations.md).
// Runnable on its own (`npm run temporal-server`): builds or finds the binaries and prints their folder.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Config } from './config.ts';
import { freePorts } from './free-ports.ts';
import { ensureGoTool, goToolBinary, type GoBuildPlace, type GoTool } from './go-tool.ts';
import { alive, killGroup, stopGroup } from './process-group.ts';
import { waitUntilReady } from './temporal-dev-server.ts';

export const TEMPORAL_SERVER: GoTool = {
  name: 'temporal-server',
  module: 'go.temporal.io/server',
  version: '1.29.1',
  packages: ['cmd/server', 'cmd/tools/sql'],
};

export const serverBinary = (cacheDir: string) => goToolBinary(cacheDir, TEMPORAL_SERVER, 'cmd/server');
export const sqlToolBinary = (cacheDir: string) => goToolBinary(cacheDir, TEMPORAL_SERVER, 'cmd/tools/sql');

/** The PostgreSQL server Temporal keeps its state in, and the two databases it gets there. */
export interface TemporalPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Workflow state (persistence). */
  database: string;
  /** Workflow lists and search attributes (SQL visibility). */
  visibilityDatabase: string;
}

export interface TemporalServerOptions {
  cacheDir: string;
  /** Where the server's configuration is written. */
  dir: string;
  postgres: TemporalPostgres;
  /** History shards: fixed for the life of a cluster (docs/operations.md). */
  shards: number;
  env: Readonly<Record<string, string | undefined>>;
}

export interface TemporalServer {
  address: string;
  pid(): number | undefined;
  /** SIGINT, then SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL to the whole server, as a crash would end it. */
  kill(): Promise<void>;
  /** A new server process on the same configuration and databases. */
  restart(): Promise<void>;
}

/** Builds the server and its schema tool into the cache (minutes, once per machine), or finds them there. */
export function ensureTemporalServer(place: GoBuildPlace, progress: (line: string) => void): Promise<string | undefined> {
  return ensureGoTool(TEMPORAL_SERVER, place, progress);
}

/** The schema tool's embedded schema for each database (no schema files to ship). */
const SCHEMAS = { database: 'postgresql/v12/temporal', visibilityDatabase: 'postgresql/v12/visibility' } as const;

/**
 * Both databases dropped, created and brought to the newest schema with the schema tool (as an operator would,
 * with `update-schema` alone on an existing cluster).
 */
export async function makeTemporalDatabases(cacheDir: string, pg: TemporalPostgres): Promise<void> {
  const tool = sqlToolBinary(cacheDir);
  for (const key of ['database', 'visibilityDatabase'] as const) {
    const common = ['--plugin', 'postgres12', '--ep', pg.host, '--port', String(pg.port), '--user', pg.user, '--password', pg.password, '--db', pg[key]];
    const run = (args: string[]) => promisify(execFile)(tool, [...common, ...args], { timeout: 120_000 });
    await run(['drop-database', '--force']);
    await run(['create-database']);
    await run(['setup-schema', '-v', '0.0']);
    await run(['update-schema', '--schema-name', SCHEMAS[key]]);
  }
}

const SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;

/** The server's configuration: each service's gRPC and membership port, PostgreSQL for both stores. */
export function serverConfigYaml(o: { postgres: TemporalPostgres; shards: number; ports: Record<(typeof SERVICES)[number], { grpc: number; membership: number; http?: number }> }): string {
  const store = (database: string, conns: number) => `      sql:
        pluginName: postgres12
        databaseName: ${JSON.stringify(database)}
        connectAddr: ${JSON.stringify(`${o.postgres.host}:${o.postgres.port}`)}
        connectProtocol: tcp
        user: ${JSON.stringify(o.postgres.user)}
        password: ${JSON.stringify(o.postgres.password)}
        maxConns: ${conns}
        maxIdleConns: ${conns}
        maxConnLifetime: 1h`;
  const services = SERVICES.map((name) => {
    const p = o.ports[name];
    return `  ${name}:
    rpc:
      grpcPort: ${p.grpc}
      membershipPort: ${p.membership}
      bindOnLocalHost: true${p.http ? `\n      httpPort: ${p.http}` : ''}`;
  }).join('\n');
  return `log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: ${o.shards}
  datastores:
    default:
${store(o.postgres.database, 20)}
    visibility:
${store(o.postgres.visibilityDatabase, 10)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
services:
${services}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: 127.0.0.1:${o.ports.frontend.grpc}
dcRedirectionPolicy:
  policy: noop
`;
}

/** Ready once the frontend answers for the system namespace (the service's own namespace is its set-up's job). */
const READY_TIMEOUT_MS = 120_000;

/** Starts the server on fresh ports with the configuration written under `dir`; the databases must exist. */
export async function startTemporalServer(o: TemporalServerOptions): Promise<TemporalServer> {
  const [frontend, frontendMembership, http, history, historyMembership, matching, matchingMembership, worker, workerMembership] = await freePorts(9);
  const ports = {
    frontend: { grpc: frontend!, membership: frontendMembership!, http: http! },
    history: { grpc: history!, membership: historyMembership! },
    matching: { grpc: matching!, membership: matchingMembership! },
    worker: { grpc: worker!, membership: workerMembership! },
  };
  mkdirSync(join(o.dir, 'config'), { recursive: true });
  writeFileSync(join(o.dir, 'config', 'production.yaml'), serverConfigYaml({ postgres: o.postgres, shards: o.shards, ports }));
  const address = `127.0.0.1:${ports.frontend.grpc}`;
  let pid: number | undefined;
  const start = async () => {
    const child = spawn(serverBinary(o.cacheDir), ['--root', o.dir, '--config', 'config', '--env', 'production', '--allow-no-auth', 'start'], {
      // Its own process group: a kill reaches all of it, and a terminal's Ctrl-C reaches us first.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: o.env,
    });
    // The last lines it printed (warnings and errors only), for the message should it not become ready.
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    pid = child.pid;
    try {
      await waitUntilReady(address, 'temporal-system', child, READY_TIMEOUT_MS);
    } catch (err) {
      if (pid) await killGroup(pid);
      throw new Error(`Temporal server on ${address} ${(err as Error).message}: ${tail.trim().split('\n').slice(-3).join(' | ')}`, { cause: err });
    }
    child.unref();
    for (const stream of [child.stdout, child.stderr] as Array<{ unref?: () => void } | null>) stream?.unref?.();
  };
  await start();
  return {
    address,
    pid: () => (pid && alive(pid) ? pid : undefined),
    async stop() {
      if (pid) await stopGroup(pid);
    },
    async kill() {
      if (pid) await killGroup(pid);
    },
    restart: start,
  };
}

/** PostgreSQL on loopback with trust authentication (this machine's); `url` (postgres://user:pass@host:port) elsewhere. */
export function postgresAt(url: string, database: string): TemporalPostgres {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username) || 'postgres',
    password: decodeURIComponent(parsed.password),
    database,
    visibilityDatabase: `${database}_visibility`,
  };
}

/**
 * A fresh cluster for a test or a bench run: the binaries built or found, databases named `database` and
 * `<database>_visibility` made afresh on `postgresUrl` (default postgres://postgres@127.0.0.1:5432), the
 * server started on free ports. The caller stops it.
 */
export async function startFreshTemporalServer(o: { database: string; shards: number; dir: string; config: Pick<Config, 'temporal'>; postgresUrl: string | undefined; progress: (line: string) => void }): Promise<TemporalServer> {
  const { temporal } = o.config;
  const place = { cacheDir: temporal.cliCacheDir, searchPath: temporal.searchPath, childEnv: temporal.childEnv };
  if (!(await ensureTemporalServer(place, o.progress))) throw new Error('the Temporal server could not be built: run `npm run temporal-server` with Go 1.25 or newer on PATH');
  const postgres = postgresAt(o.postgresUrl ?? 'postgres://postgres@127.0.0.1:5432', o.database);
  await makeTemporalDatabases(place.cacheDir, postgres);
  return startTemporalServer({ cacheDir: place.cacheDir, dir: o.dir, postgres, shards: o.shards, env: temporal.childEnv });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { loadConfig } = await import('./config.ts');
  const { temporal } = loadConfig();
  const dir = await ensureTemporalServer({ cacheDir: temporal.cliCacheDir, searchPath: temporal.searchPath, childEnv: temporal.childEnv }, (line) => console.error(line));
  if (!dir) process.exit(1);
  console.log(dir);
}
