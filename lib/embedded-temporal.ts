// The embedded Temporal server of `npm start` and the tests: the CLI dev server, or the SDK's download.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { startDevServer, type DevServer, type DevServerOptions } from './temporal-dev-server.ts';
import { ensureTemporalCli, INSTALL_HINT, TemporalCliMissingError, type CliSearch } from './temporal-cli.ts';
import { SEARCH_ATTRIBUTES } from './temporal.ts';

export type EmbeddedTemporalOptions = Omit<DevServerOptions, 'cliPath'> & {
  search: CliSearch;
  progress: (line: string) => void;
};

// Machines with internet and no CLI or Go: the SDK downloads a dev server into the cache.
async function startDownloadedServer(o: EmbeddedTemporalOptions): Promise<DevServer> {
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download', downloadDir: o.search.cliCacheDir },
      ip: '127.0.0.1',
      port: o.port,
      ui: o.uiPort !== undefined,
      ...(o.uiPort === undefined ? {} : { uiPort: o.uiPort }),
      ...(o.dbFile ? { dbFilename: o.dbFile } : {}),
      namespace: o.namespace,
      searchAttributes: SEARCH_ATTRIBUTES.map((name) => defineSearchAttributeKey(name, SearchAttributeType.KEYWORD)),
      extraArgs: o.dbFile ? ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'] : [],
    },
  });
  return {
    address: env.address,
    uiUrl: o.uiPort === undefined ? undefined : `http://localhost:${o.uiPort}`,
    pid: undefined,
    stop: () => env.teardown(),
  };
}

/** Starts a dev server from the CLI found or built; failing that, the SDK's download; failing that, one clear error. */
export async function startEmbeddedTemporal(o: EmbeddedTemporalOptions): Promise<DevServer> {
  const cliPath = await ensureTemporalCli(o.search, o.progress);
  if (cliPath) return startDevServer({ ...o, cliPath });
  o.progress("No usable Temporal CLI and no Go build: trying the Temporal SDK's download of the dev server...");
  try {
    return await startDownloadedServer(o);
  } catch {
    throw new TemporalCliMissingError(INSTALL_HINT);
  }
}
