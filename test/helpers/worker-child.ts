// The worker (or the API) as a child process (`node --import tsx bin/worker.ts`), for crash tests that kill it for real.
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { packageRoot } from '../../lib/paths.ts';
import { onSuiteEnd } from './cleanup.ts';
import type { ReceivedMail, SmtpTestServer } from './smtp.ts';

export interface WorkerChild {
  child: ChildProcess;
  /** The signal (or exit code) it ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** The last few kilobytes it printed, for failure messages. */
  output: () => string;
}

export function startWorkerChild(env: Record<string, string | undefined>): WorkerChild {
  return startServiceChild('bin/worker.ts', env);
}

/** An entry point of the service (`bin/worker.ts`, `bin/api.ts`) as a child process, killed after the run if still alive. */
export function startServiceChild(entry: 'bin/worker.ts' | 'bin/api.ts', env: Record<string, string | undefined>): WorkerChild {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: packageRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  onSuiteEnd(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, exited, output: () => output };
}

/** Records the emails to `domain`; the worker dies (SIGKILL) while SMTP takes the `killAt`-th, the rest of its micro-batch in flight. */
export function killDuringDelivery(smtp: SmtpTestServer, domain: string, worker: WorkerChild, killAt: number): { received: ReceivedMail[]; stop: () => void } {
  const received: ReceivedMail[] = [];
  const stop = smtp.onMessage((mail) => {
    if (!mail.to[0]?.endsWith(`@${domain}`)) return;
    received.push(mail);
    if (received.length === killAt) worker.child.kill('SIGKILL');
  });
  return { received, stop };
}

/** Emails per address, checking that nobody got two and that every Message-ID is its own. */
export function expectOncePerAddress(received: readonly ReceivedMail[]): Map<string, number> {
  const perAddress = new Map<string, number>();
  for (const mail of received) perAddress.set(mail.to[0]!, (perAddress.get(mail.to[0]!) ?? 0) + 1);
  expect([...perAddress.entries()].filter(([, n]) => n !== 1)).to.deep.equal([]);
  expect(new Set(received.map((m) => m.messageId)).size).to.equal(received.length);
  return perAddress;
}

/** The API (`bin/api.ts`) as a child process on `env`, once its `/healthz` answers 200; its base URL is env's PUBLIC_BASE_URL. */
export async function startApiChild(env: Record<string, string | undefined>): Promise<WorkerChild & { url: string }> {
  const api = startServiceChild('bin/api.ts', env);
  const url = env.PUBLIC_BASE_URL!;
  for (let i = 0; i < 240; i++) {
    if (api.child.exitCode !== null || api.child.signalCode !== null) throw new Error(`the API exited during start-up:\n${api.output()}`);
    if ((await fetch(`${url}/healthz`).then((r) => r.status, () => 0)) === 200) return { ...api, url };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not start:\n${api.output()}`);
}
