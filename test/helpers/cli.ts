// Runs the package's commands and captures what they print: in a process as a user would (`node bin/...`), or the
// cardsvc command in the test's own process through the same entry function (a Node start with tsx costs seconds
// under load, and the CLI tests run it a hundred times; test/runtime/cardsvc-process.test.ts covers the process).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../cli/index.ts';
import { packageRoot } from '../../lib/paths.ts';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCommand(
  args: string[],
  env: Record<string, string | undefined>,
  options: { stdin?: string; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: packageRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** `cardsvc ...` run in this process by `runCli`, with `env` as its environment and `stdin` as its input. */
export async function cardsvc(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env,
    stdin: Readable.from(stdin === undefined || stdin === '' ? [] : [stdin]),
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** `cardsvc ...` as a process, through the package's bin shim. */
export function cardsvcProcess(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<CommandResult> {
  return runCommand([join(packageRoot, 'bin', 'cardsvc.js'), ...args], env, stdin === undefined ? {} : { stdin });
}

/** An entry point under bin/ run through tsx, as the npm scripts run it. */
export function entryPoint(name: string, env: Record<string, string | undefined>, timeoutMs?: number): Promise<CommandResult> {
  return runCommand(['--import', 'tsx', join(packageRoot, 'bin', `${name}.ts`)], env, timeoutMs === undefined ? {} : { timeoutMs });
}

/** A `cardsvc` process on a terminal (a pseudo-terminal made by util-linux's `script`): what it shows, typing into it. */
export interface TerminalRun {
  /** Everything the terminal showed so far (stdout and stderr, as a person sees them). */
  screen(): string;
  /** Resolves once the screen shows `text` (after `from` characters of it). */
  shows(text: string, from?: number): Promise<void>;
  type(text: string): void;
  /** The exit code once the command ends. */
  exit: Promise<number | null>;
}

export function cardsvcOnTerminal(args: string[], env: Record<string, string | undefined>, timeoutMs = 30_000): TerminalRun {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, join(packageRoot, 'bin', 'cardsvc.js'), ...args].map(quote).join(' ');
  // -e: script exits with the command's code; the typescript file is thrown away.
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: packageRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    for (const check of waiters) check();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    for (const check of waiters) check();
    resolve(code);
  }));
  return {
    screen: () => screen,
    shows: (text, from = 0) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (screen.indexOf(text, from) >= 0) {
            waiters.delete(check);
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`the command ended without showing ${JSON.stringify(text)}; it showed:\n${screen}`));
          }
        };
        waiters.add(check);
        check();
      }),
    type: (text) => void child.stdin.write(text),
    exit,
  };
}
