// Finds the Temporal CLI (dev server) binary, building the official one with Go when none is found.
// Runnable on its own (`node --import tsx lib/temporal-cli.ts`): prints the binary's path, for .ci/run.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

export const CLI_VERSION = '1.5.1';
export const CLI_MODULE = `github.com/temporalio/cli/cmd/temporal@v${CLI_VERSION}`;
const MIN_SERVER = [1, 29] as const;

export interface CliSearch {
  cliPath: string | undefined;
  cliCacheDir: string;
  searchPath: string;
  /** The environment handed to `go install`. */
  childEnv: Readonly<Record<string, string | undefined>>;
}

export const INSTALL_HINT =
  `Temporal CLI not found: install Go and run \`GOBIN="$HOME/.cache/cardsvc/temporal-cli-${CLI_VERSION}" go install ${CLI_MODULE}\`, ` +
  'or set TEMPORAL_CLI_PATH to a `temporal` binary (Server 1.29 or newer), or TEMPORAL_ADDRESS to a running server';

export class TemporalCliMissingError extends Error {
  override name = 'TemporalCliMissingError';
}

export function cachedCliPath(cacheDir: string): string {
  return join(cacheDir, `temporal-cli-${CLI_VERSION}`, 'temporal');
}

function executableOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/** The server version a CLI binary reports, e.g. "1.29.1" from "0.0.0-DEV (Server 1.29.1, UI 2.42.1)". */
export async function serverVersionOf(binary: string): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)(binary, ['--version'], { timeout: 10_000 });
    return /Server (\d+\.\d+\.\d+)/.exec(stdout)?.[1];
  } catch {
    return undefined;
  }
}

export function isSupportedServer(version: string | undefined): boolean {
  if (!version) return false;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > MIN_SERVER[0] || (major === MIN_SERVER[0] && minor >= MIN_SERVER[1]);
}

/** TEMPORAL_CLI_PATH, then `temporal` on PATH, then the cached build; only a Server 1.29+ binary counts. */
export async function findTemporalCli(search: CliSearch): Promise<string | undefined> {
  const candidates = [search.cliPath, executableOnPath('temporal', search.searchPath), cachedCliPath(search.cliCacheDir)];
  for (const candidate of candidates) {
    if (candidate && isSupportedServer(await serverVersionOf(candidate))) return candidate;
  }
  return undefined;
}

/** Builds the official CLI into the cache with `go install` (a few minutes, once per machine). */
export async function buildTemporalCli(search: CliSearch, progress: (line: string) => void): Promise<string | undefined> {
  const go = executableOnPath('go', search.searchPath);
  if (!go) return undefined;
  const target = cachedCliPath(search.cliCacheDir);
  progress(`Building the Temporal CLI v${CLI_VERSION} with Go into ${target} (about 3 minutes, once per machine)...`);
  const child = spawn(go, ['install', CLI_MODULE], {
    env: { ...search.childEnv, GOBIN: join(search.cliCacheDir, `temporal-cli-${CLI_VERSION}`) },
    // Progress goes to stderr: run as a script, this module's stdout is only the binary's path.
    stdio: ['ignore', 2, 2],
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) {
    progress(`go install ${CLI_MODULE} failed (exit ${code})`);
    return undefined;
  }
  return isSupportedServer(await serverVersionOf(target)) ? target : undefined;
}

/** A usable CLI path, building one when Go is present; undefined leaves it to the SDK's download. */
export async function ensureTemporalCli(search: CliSearch, progress: (line: string) => void): Promise<string | undefined> {
  return (await findTemporalCli(search)) ?? (await buildTemporalCli(search, progress));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { loadConfig } = await import('./config.ts');
  const config = loadConfig();
  const path = await ensureTemporalCli(config.temporal, (line) => console.error(line));
  if (!path) {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
  console.log(path);
}
