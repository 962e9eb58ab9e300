// One builder for the Go programs the project runs beside itself (the Temporal CLI, the Temporal server and its
// schema tool): `go install <module>/<package>@v<version>` from the Go module proxy into a folder of the cache
// named for the tool and its version, outside the checkout. A warm cache is used as it is; a cold one builds once.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, join } from 'node:path';

/** A Go program pinned to one version of its module. */
export interface GoTool {
  /** The cache folder's stem: `<name>-<version>`. */
  name: string;
  module: string;
  /** Without the leading `v`. */
  version: string;
  /** The module's main packages to install; each binary is named for its package's last element. */
  packages: readonly string[];
}

/** Where a build looks for Go and puts its output. */
export interface GoBuildPlace {
  cacheDir: string;
  searchPath: string;
  /** The environment handed to `go install`. */
  childEnv: Readonly<Record<string, string | undefined>>;
}

export function executableOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function goToolDir(cacheDir: string, tool: GoTool): string {
  return join(cacheDir, `${tool.name}-${tool.version}`);
}

/** The path of one of the tool's binaries in the cache (present or not). */
export function goToolBinary(cacheDir: string, tool: GoTool, pkg: string): string {
  return join(goToolDir(cacheDir, tool), basename(pkg));
}

/** The `go install` arguments: every package of the tool at its pinned version. */
export function goInstallArgs(tool: GoTool): string[] {
  return ['install', ...tool.packages.map((pkg) => `${tool.module}/${pkg}@v${tool.version}`)];
}

/**
 * The tool's folder once every binary is in it: found in the cache, else built there with Go (minutes, once per
 * machine). undefined when there is no Go or the build failed (the progress lines say which).
 */
export async function ensureGoTool(tool: GoTool, place: GoBuildPlace, progress: (line: string) => void): Promise<string | undefined> {
  const dir = goToolDir(place.cacheDir, tool);
  const complete = () => tool.packages.every((pkg) => isExecutable(goToolBinary(place.cacheDir, tool, pkg)));
  if (complete()) return dir;
  const go = executableOnPath('go', place.searchPath);
  if (!go) {
    progress(`${tool.name} v${tool.version} is not in ${dir} and Go is not on PATH to build it`);
    return undefined;
  }
  progress(`Building ${tool.module} v${tool.version} (${tool.packages.join(', ')}) with Go into ${dir} (minutes, once per machine)...`);
  const child = spawn(go, goInstallArgs(tool), {
    env: { ...place.childEnv, GOBIN: dir },
    // Progress goes to stderr: run as a script, a caller's stdout carries only the path it prints.
    stdio: ['ignore', 2, 2],
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) {
    progress(`go ${goInstallArgs(tool).join(' ')} failed (exit ${code})`);
    return undefined;
  }
  return complete() ? dir : undefined;
}
