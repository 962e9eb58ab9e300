import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../lib/config.ts';
import { findTemporalCli } from '../../lib/temporal-cli.ts';
import { startDevServer } from '../../lib/temporal-dev-server.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { freePort } from '../helpers/ports.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the embedded Temporal dev server', function () {
  // Two starts, each allowed the server's 90 s ready wait (a restart on a fresh file can meet ringpop's retry).
  this.timeout(200_000);

  it('persists to its file, keeps its pid in the data folder, and a later start stops one left by a crash', async () => {
    const config = loadConfig(baseEnv());
    const cliPath = await findTemporalCli(config.temporal);
    expect(cliPath, 'a Temporal CLI is installed for the suite').to.be.a('string');
    const dir = tempDir();
    const options = {
      cliPath: cliPath!,
      uiPort: undefined,
      dbFile: join(dir, 'temporal.sqlite'),
      namespace: 'default',
      pidFile: join(dir, 'temporal.pid'),
      env: config.temporal.childEnv,
    };
    const crashed = await startDevServer({ ...options, port: await freePort() });
    expect(Number(readFileSync(options.pidFile, 'utf8'))).to.equal(crashed.pid);
    expect(existsSync(options.dbFile)).to.be.true;

    // The first server is never stopped, as after a crash of `npm start`; the next start cleans it up.
    const next = await startDevServer({ ...options, port: await freePort() });
    try {
      expect(alive(crashed.pid!)).to.be.false;
      expect(Number(readFileSync(options.pidFile, 'utf8'))).to.equal(next.pid);
    } finally {
      await next.stop();
    }
    expect(alive(next.pid!)).to.be.false;
    expect(existsSync(options.pidFile)).to.be.false;
  });
});
