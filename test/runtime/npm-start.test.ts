// `npm start` (bin/start.ts) as a service manager runs it: a process on free ports with the embedded dev server and
// the bounce listener. Its ready banner names the way in (the console, and the account command before it), and
// SIGTERM, after start-up or during it, stops everything it started: the process exits, the dev server (a process
// group of its own) is gone, no process of its group remains and every port is free again.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { packageRoot } from '../../lib/paths.ts';
import { baseEnv, mysqlUrl, tempDir } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/ports.ts';

interface StartRun {
  child: ChildProcess;
  dataDir: string;
  ports: number[];
  port: number;
  output(): string;
  /** Resolves once the output shows `text`; rejects when the process ends first. */
  shows(text: string): Promise<void>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startAllInOne(): Promise<StartRun> {
  const [port, temporalPort, uiPort, bouncePort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const dataDir = tempDir('cardsvc-start-');
  const env = baseEnv({
    DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    BOUNCE_DOMAIN: 'bounces.localhost',
    BOUNCE_SMTP_PORT: String(bouncePort),
  });
  // A process group of its own, as a service manager's unit: what is left of it afterwards can be listed.
  const child = spawn(process.execPath, ['--import', 'tsx', join(packageRoot, 'bin', 'start.ts')], { cwd: packageRoot, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  const waiters = new Set<() => void>();
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
    for (const check of waiters) check();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      for (const check of waiters) check();
      resolve({ code, signal });
    }),
  );
  const run: StartRun = {
    child,
    dataDir,
    port,
    ports: [port, temporalPort, uiPort, bouncePort],
    output: () => output,
    shows: (text) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (output.includes(text)) {
            waiters.delete(check);
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`npm start ended before showing ${JSON.stringify(text)}:\n${output}`));
          }
        };
        waiters.add(check);
        check();
      }),
    exit,
  };
  return run;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids of the processes whose process group is `pgid`. */
function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** SIGTERM to the process alone (as systemd's or Docker's stop sends it); then everything it started must be gone. */
async function expectStoppedBySigterm(run: StartRun, devServerPid: number): Promise<void> {
  run.child.kill('SIGTERM');
  const ended = await run.exit;
  expect(ended, run.output()).to.deep.equal({ code: 0, signal: null });
  // The dev server is stopped (and waited for) before the process exits; the poll only absorbs /proc's lag.
  expect(await eventually(async () => alive(devServerPid), (up) => !up, 5000), `dev server ${devServerPid} still running`).to.equal(false);
  // Children of its group (tsx's esbuild service) end as they see the process gone: waited for, never a sleep.
  expect(await eventually(async () => groupMembers(run.child.pid!), (pids) => pids.length === 0, 10_000), 'processes left in the group').to.deep.equal([]);
  expect(await Promise.all(run.ports.map(portOpen)), `ports ${run.ports.join(', ')} open`).to.deep.equal(run.ports.map(() => false));
  expect(existsSync(join(run.dataDir, 'temporal.pid'))).to.equal(false);
}

describe('npm start (bin/start.ts) as a process', function () {
  // The dev server's start is allowed its 90 s ready wait on a loaded machine.
  this.timeout(240_000);
  // Its own SQLite file under DATA_DIR: CI runs it once, in the SQLite pass.
  before(function () {
    if (mysqlUrl) this.skip();
  });
  const running: StartRun[] = [];
  afterEach(() => {
    // A failed test leaves nothing running: the process's group and the dev server's.
    for (const run of running.splice(0)) {
      const devServerPid = Number(existsSync(join(run.dataDir, 'temporal.pid')) ? readFileSync(join(run.dataDir, 'temporal.pid'), 'utf8') : 0);
      for (const pgid of [run.child.pid!, devServerPid].filter((pid) => pid > 0)) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  });

  it('prints a banner naming the console at its real port and the account command first; SIGTERM stops everything it started', async () => {
    const run = await startAllInOne();
    running.push(run);
    await run.shows('Press Ctrl-C to stop.');
    const banner = run.output().slice(run.output().indexOf('Card service ready.'));
    const lines = banner.split('\n');
    expect(lines[1]).to.equal(`  Console:     http://localhost:${run.port}/v2/console`);
    expect(lines[2]).to.equal(
      '               (first make your account, in another terminal: npx cardsvc account create --name "Your company" --owner-email you@example.com --password-stdin)',
    );
    expect(banner).to.include(`  API:         http://localhost:${run.port}/v2/api`);
    // What the banner names answers: the console's sign-in.
    const consolePage = await fetch(`http://127.0.0.1:${run.port}/v2/console`);
    expect(consolePage.status).to.equal(200);
    expect(new URL(consolePage.url).pathname).to.match(/^\/v2\/console\/sign-in/);

    const devServerPid = Number(readFileSync(join(run.dataDir, 'temporal.pid'), 'utf8'));
    expect(alive(devServerPid)).to.equal(true);
    await expectStoppedBySigterm(run, devServerPid);
  });

  it('SIGTERM during start-up (the dev server started, not yet ready) still stops everything, the dev server included', async () => {
    const run = await startAllInOne();
    running.push(run);
    await run.shows('Starting the embedded Temporal dev server');
    const pidFile = join(run.dataDir, 'temporal.pid');
    await eventually(async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, (found) => found, 30_000);
    const devServerPid = Number(readFileSync(pidFile, 'utf8'));
    await expectStoppedBySigterm(run, devServerPid);
    expect(run.output()).to.not.include('Card service ready.');
  });
});
