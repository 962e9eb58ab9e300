import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { startEmbeddedTemporal } from '../../lib/embedded-temporal.ts';
import { cachedCliPath, findTemporalCli, INSTALL_HINT, isSupportedServer, TemporalCliMissingError } from '../../lib/temporal-cli.ts';
import { devServerArgs } from '../../lib/temporal-dev-server.ts';
import { tempDir } from '../helpers/env.ts';

function fakeCli(dir: string, versionLine: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'temporal');
  writeFileSync(path, `#!/bin/sh\necho '${versionLine}'\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('finding the Temporal CLI', () => {
  it('accepts Server 1.29 or newer only', () => {
    expect(isSupportedServer('1.29.1')).to.be.true;
    expect(isSupportedServer('1.30.0')).to.be.true;
    expect(isSupportedServer('2.0.0')).to.be.true;
    expect(isSupportedServer('1.28.9')).to.be.false;
    expect(isSupportedServer(undefined)).to.be.false;
  });

  it('prefers TEMPORAL_CLI_PATH, then PATH, then the cached build, skipping binaries that are too old', async () => {
    const root = tempDir();
    const explicit = fakeCli(join(root, 'explicit'), 'temporal version 1.4.0 (Server 1.29.0, UI 2.40.0)');
    const onPath = fakeCli(join(root, 'path'), 'temporal version 0.0.0-DEV (Server 1.29.1, UI 2.42.1)');
    const old = fakeCli(join(root, 'old'), 'temporal version 1.0.0 (Server 1.25.0, UI 2.30.0)');
    const cacheDir = join(root, 'cache');
    const cached = fakeCli(join(cacheDir, 'temporal-cli-1.5.1'), 'temporal version 0.0.0-DEV (Server 1.29.1, UI 2.42.1)');
    expect(cached).to.equal(cachedCliPath(cacheDir));
    const search = { cliCacheDir: cacheDir, childEnv: {} };
    expect(await findTemporalCli({ ...search, cliPath: explicit, searchPath: join(root, 'path') })).to.equal(explicit);
    expect(await findTemporalCli({ ...search, cliPath: old, searchPath: join(root, 'path') })).to.equal(onPath);
    expect(await findTemporalCli({ ...search, cliPath: undefined, searchPath: join(root, 'old') })).to.equal(cached);
    expect(await findTemporalCli({ cliCacheDir: join(root, 'none'), childEnv: {}, cliPath: old, searchPath: '' })).to.be.undefined;
  });

  it('stops with one line saying how to install the CLI when there is no CLI, no Go and no network', async () => {
    const root = tempDir();
    const err = await startEmbeddedTemporal({
      search: { cliPath: undefined, cliCacheDir: join(root, 'cache'), searchPath: join(root, 'empty-bin'), childEnv: {} },
      progress: () => undefined,
      port: 1,
      uiPort: undefined,
      dbFile: undefined,
      pidFile: undefined,
      namespace: 'default',
      env: {},
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(TemporalCliMissingError);
    expect((err as Error).message).to.equal(INSTALL_HINT);
    expect(INSTALL_HINT).to.include('go install github.com/temporalio/cli/cmd/temporal@v1.5.1').and.not.include('\n');
  });

  it('runs a file-backed dev server with the WAL pragmas and the service search attributes', () => {
    const args = devServerArgs({ port: 7233, uiPort: 8233, dbFile: '/d/temporal.sqlite', namespace: 'default' }).join(' ');
    expect(args).to.include('--db-filename /d/temporal.sqlite --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal');
    expect(args).to.include('--port 7233').and.include('--ui-port 8233').and.include('--log-level warn');
    for (const name of ['CardAccountId', 'CardKind', 'CardStatus']) expect(args).to.include(`--search-attribute ${name}=Keyword`);
    const inMemory = devServerArgs({ port: 1, uiPort: undefined, dbFile: undefined, namespace: 'n' }).join(' ');
    expect(inMemory).to.include('--headless').and.not.include('--db-filename');
  });
});
