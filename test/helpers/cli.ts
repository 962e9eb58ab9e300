// Runs the package's commands as a user would (`node bin/...`) and captures what they print.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
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

/** `cardsvc ...` through the package's bin shim. */
export function cardsvc(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<CommandResult> {
  return runCommand([join(packageRoot, 'bin', 'cardsvc.js'), ...args], env, stdin === undefined ? {} : { stdin });
}

/** An entry point under bin/ run through tsx, as the npm scripts run it. */
export function entryPoint(name: string, env: Record<string, string | undefined>, timeoutMs?: number): Promise<CommandResult> {
  return runCommand(['--import', 'tsx', join(packageRoot, 'bin', `${name}.ts`)], env, timeoutMs === undefined ? {} : { timeoutMs });
}
