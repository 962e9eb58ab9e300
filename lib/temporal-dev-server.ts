// Runs the Temporal CLI dev server (`temporal server start-dev`) in its own process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { alive, stopGroup } from './process-group.ts';
import { describeNamespace, SEARCH_ATTRIBUTES } from './temporal.ts';

export interface DevServerOptions {
  cliPath: string;
  port: number;
  /** undefined runs headless (no Web UI). */
  uiPort: number | undefined;
  /** undefined keeps everything in memory. */
  dbFile: string | undefined;
  namespace: string;
  /** Where the server's pid is kept, so a server left by a crash is stopped at the next start. */
  pidFile: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

export interface DevServer {
  address: string;
  uiUrl: string | undefined;
  pid: number | undefined;
  stop(): Promise<void>;
}

export function devServerArgs(o: Pick<DevServerOptions, 'port' | 'uiPort' | 'dbFile' | 'namespace'>): string[] {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(o.port), '--namespace', o.namespace, '--log-level', 'warn'];
  args.push(...(o.uiPort === undefined ? ['--headless'] : ['--ui-port', String(o.uiPort)]));
  if (o.dbFile) {
    // Measured: WAL and synchronous=normal more than double the file-backed server's throughput.
    args.push('--db-filename', o.dbFile, '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  for (const name of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${name}=Keyword`);
  return args;
}

/** Stops a dev server that an earlier run left behind (its pid file names it). */
async function stopStaleServer(pidFile: string): Promise<void> {
  const pid = Number(await readFile(pidFile, 'utf8').catch(() => ''));
  if (pid > 0 && alive(pid)) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('start-dev')) await stopGroup(pid);
  }
  await rm(pidFile, { force: true });
}

/** Resolves once the server at `address` answers for `namespace`; throws if the child exits or time runs out. */
export async function waitUntilReady(address: string, namespace: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('exited during start-up');
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 1000 });
      await describeNamespace(connection, namespace, 1000);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms: ${(err as Error).message}`, { cause: err });
      await sleep(100);
    } finally {
      await connection?.close();
    }
  }
}

/**
 * A restart on the file of a server that ended moments ago usually is ready in 2 s, but the file still lists the
 * old server's cluster members for 20 s (Temporal's heartbeat cutoff): when the first ringpop join only reaches
 * those dead addresses, it retries 10 s later, and the frontend answers after 30-40 s (a CI run saw it, once).
 * Waiting 90 s covers that path with room on a loaded machine.
 */
const READY_TIMEOUT_MS = 90_000;

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  if (options.pidFile) await stopStaleServer(options.pidFile);
  const child = spawn(options.cliPath, devServerArgs(options), {
    // Its own process group: a terminal's Ctrl-C reaches us, and we stop the server last.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: options.env,
  });
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-4000);
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`Could not start the Temporal dev server (${options.cliPath})`);
  if (options.pidFile) await writeFile(options.pidFile, String(pid));
  const address = `127.0.0.1:${options.port}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopGroup(pid);
    if (options.pidFile) await rm(options.pidFile, { force: true });
  };
  try {
    await waitUntilReady(address, options.namespace, child, READY_TIMEOUT_MS);
  } catch (err) {
    await stop();
    const detail = stderrTail.trim().split('\n').slice(-3).join(' | ');
    throw new Error(`Temporal dev server on port ${options.port} ${(err as Error).message}${detail ? `: ${detail}` : ''}`, { cause: err });
  }
  child.unref();
  (child.stderr as (typeof child.stderr & { unref?: () => void }) | null)?.unref?.();
  return {
    address,
    uiUrl: options.uiPort === undefined ? undefined : `http://localhost:${options.uiPort}`,
    pid,
    stop,
  };
}
