// `npm run bounces` as a process: it refuses to start without BOUNCE_DOMAIN or on an unmigrated database, and on a
// migrated one it listens, refuses an unknown token at RCPT and stops cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../lib/config.ts';
import { packageRoot } from '../../lib/paths.ts';
import { openDatabase } from '../../app/runtime.ts';
import { entryPoint } from '../helpers/cli.ts';
import { freshSqliteUrl } from '../helpers/database.ts';
import { baseEnv, mysqlUrl, tempDir } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/ports.ts';
import { deliverToListener, ehloLines } from './reports.ts';

describe('npm run bounces (the listener alone)', function () {
  this.timeout(40_000);
  // Nothing here depends on the database's kind: CI runs it once, in the SQLite pass.
  before(function () {
    if (mysqlUrl) this.skip();
  });

  it('exits with one line when BOUNCE_DOMAIN is not set', async () => {
    const result = await entryPoint('bounces', baseEnv({ DATABASE_URL: freshSqliteUrl(), DATA_DIR: tempDir() }));
    expect(result.code).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.deep.equal(['npm run bounces: BOUNCE_DOMAIN is not set: the listener takes bounces for bounces+<token>@BOUNCE_DOMAIN']);
  });

  it('refuses to start while migrations are pending', async () => {
    const result = await entryPoint('bounces', baseEnv({ DATABASE_URL: freshSqliteUrl(), DATA_DIR: tempDir(), BOUNCE_DOMAIN: 'bounces.example.com' }));
    expect(result.code).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.match(/^npm run bounces: .*migration\(s\) pending .*run `npm run migrate` first/);
  });

  it('listens on BOUNCE_SMTP_PORT, answers 550 to an unknown token, and exits 0 on SIGTERM', async () => {
    const url = freshSqliteUrl();
    const models = await openDatabase(loadConfig(baseEnv({ DATABASE_URL: url })), 'migrate');
    await models.sequelize.close();
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', join(packageRoot, 'bin', 'bounces.ts')], {
      cwd: packageRoot,
      env: baseEnv({ DATABASE_URL: url, DATA_DIR: tempDir(), BOUNCE_DOMAIN: 'bounces.example.com', BOUNCE_SMTP_PORT: String(port) }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const lines = await eventually(() => ehloLines(port).catch(() => [] as string[]), (l) => l.length > 0, 30_000, 200);
      expect(lines[0]).to.match(/^250-bounces\.example\.com /);
      const answer = await deliverToListener(port, `bounces+${'1'.repeat(32)}@bounces.example.com`, 'Subject: x\r\n\r\nx');
      expect(answer).to.deep.include({ accepted: false, code: 550, command: 'RCPT TO' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr).to.equal(0);
  });
});
