// Finds the Temporal CLI (dev server) binary, building the official one with Go when none is found.
// Runnable on its own (`node --import tsx lib/temporal-cli.ts`): prints the binary's path, for .ci/run.
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ensureGoTool, executableOnPath, goToolBinary, type GoTool } from './go-tool.ts';

export const CLI_VERSION = '1.5.1';
/** The official CLI (its dev server), built by the project's one Go builder. */
export const TEMPORAL_CLI: GoTool = { name: 'temporal-cli', module: 'github.com/temporalio/cli', version: CLI_VERSION, packages: ['cmd/temporal'] };
export const CLI_MODULE = `${TEMPORAL_CLI.module}/cmd/temporal@v${CLI_VERSION}`;
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
  return goToolBinary(cacheDir, TEMPORAL_CLI, 'cmd/temporal');
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

/** Builds the official CLI into the cache (a few minutes, once per machine). */
export async function buildTemporalCli(search: CliSearch, progress: (line: string) => void): Promise<string | undefined> {
  const dir = await ensureGoTool(TEMPORAL_CLI, { cacheDir: search.cliCacheDir, searchPath: search.searchPath, childEnv: search.childEnv }, progress);
  if (!dir) return undefined;
  const target = cachedCliPath(search.cliCacheDir);
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
