// The worker as a child process (`node --import tsx bin/worker.ts`), for crash tests that kill it for real.
import { spawn, type ChildProcess } from 'node:child_process';
import { packageRoot } from '../../lib/paths.ts';
import { onSuiteEnd } from './cleanup.ts';

export interface WorkerChild {
  child: ChildProcess;
  /** The signal (or exit code) it ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** The last few kilobytes it printed, for failure messages. */
  output: () => string;
}

export function startWorkerChild(env: Record<string, string | undefined>): WorkerChild {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/worker.ts'], { cwd: packageRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
