import { expect } from 'chai';
import { entryPoint } from '../helpers/cli.ts';
import { freshSqliteUrl } from '../helpers/database.ts';
import { baseEnv, mysqlUrl, tempDir } from '../helpers/env.ts';
import { TEST_REWARDS_KEY } from '../helpers/stack.ts';

describe('entry points refuse to start without what they need', function () {
  this.timeout(30_000);
  // Nothing here depends on the database: CI runs it once, in the SQLite pass.
  before(function () {
    if (mysqlUrl) this.skip();
  });

  for (const name of ['api', 'worker']) {
    it(`npm run ${name} with TEMPORAL_ADDRESS unset exits with one line`, async () => {
      const result = await entryPoint(name, baseEnv({ DATABASE_URL: freshSqliteUrl(), DATA_DIR: tempDir() }));
      expect(result.code).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.deep.equal([
        `npm run ${name}: TEMPORAL_ADDRESS is not set: the ${name === 'api' ? 'API' : 'worker'} alone needs an external Temporal server (\`npm start\` runs an embedded one)`,
      ]);
    });

    it(`npm run ${name} refuses to start while migrations are pending`, async () => {
      const result = await entryPoint(name, baseEnv({ DATABASE_URL: freshSqliteUrl(), TEMPORAL_ADDRESS: '127.0.0.1:1', REWARDS_ENCRYPTION_KEY: TEST_REWARDS_KEY }));
      expect(result.code).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
      expect(result.stderr).to.match(/migration\(s\) pending .*run `npm run migrate` first/);
    });
  }

  it('npm start stops at a bad configuration value with one line naming it', async () => {
    const result = await entryPoint('start', baseEnv({ PORT: 'eighty', DATA_DIR: tempDir() }));
    expect(result.code).to.equal(1);
    expect(result.stderr.trim()).to.equal('npm start: Invalid configuration: PORT: expected a port number from 0 to 65535 (got "eighty")');
  });

  it('npm run migrate exits non-zero with one line when the database cannot be reached', async () => {
    const result = await entryPoint('migrate', baseEnv({ DATABASE_URL: 'mysql://root@127.0.0.1:1/cards' }));
    expect(result.code).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.match(/^npm run migrate: Cannot connect to the database mysql:\/\/root@127\.0\.0\.1:1\/cards: /);
  });
});
