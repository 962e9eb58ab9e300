import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig, redactDatabaseUrl } from '../../lib/config.ts';
import { packageRoot } from '../../lib/paths.ts';
import { loadDataKeys, DataKeyError } from '../../lib/data-key.ts';
import { tempDir } from '../helpers/env.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(3000);
    expect(config.publicBaseUrl).to.equal('http://localhost:3000');
    expect(config.dataDir).to.equal(join(packageRoot, 'data'));
    expect(config.database).to.deep.include({ dialect: 'sqlite', storage: join(packageRoot, 'data', 'cardsvc.sqlite') });
    expect(config.temporal).to.deep.include({
      address: undefined, port: 7233, uiPort: 8233, namespace: 'default', taskQueue: 'cardsvc', bulkTaskQueue: 'cardsvc-bulk', cliPath: undefined,
    });
    expect(loadConfig({ TEMPORAL_TASK_QUEUE: 'q' }).temporal.bulkTaskQueue).to.equal('q-bulk');
    expect(loadConfig({ TEMPORAL_BULK_TASK_QUEUE: 'b' }).temporal.bulkTaskQueue).to.equal('b');
    expect(config.bulk).to.deep.equal({ concurrency: 4, batchSize: 500 });
    expect(config.heartbeatSeconds).to.equal(30);
    expect(config.mail.poolSize).to.equal(5);
    expect(config.logLevel).to.equal('info');
    expect(config.keepAliveTimeoutMs).to.equal(65_000);
    expect(loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000' }).keepAliveTimeoutMs).to.equal(2000);
  });

  it('resolves DATA_DIR and relative SQLite paths against the package root, not the working directory', () => {
    const config = loadConfig({ DATA_DIR: 'var/cards', DATABASE_URL: 'sqlite:db/x.sqlite' });
    expect(config.dataDir).to.equal(join(packageRoot, 'var', 'cards'));
    expect(config.database).to.deep.include({ storage: join(packageRoot, 'db', 'x.sqlite') });
    expect(loadConfig({ DATA_DIR: '/srv/cards' }).database).to.deep.include({ storage: '/srv/cards/cardsvc.sqlite' });
  });

  it('selects MySQL from a mysql:// URL and follows PORT in the default public URL', () => {
    const config = loadConfig({ DATABASE_URL: 'mysql://u:p@db:3306/cards', PORT: '8080', TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(config.database).to.deep.equal({ dialect: 'mysql', url: 'mysql://u:p@db:3306/cards', statementTimeoutMs: 20_000 });
    const shrunk = loadConfig({ DATABASE_URL: 'mysql://u:p@db:3306/cards', DATABASE_STATEMENT_TIMEOUT_MS: '2000' });
    expect(shrunk.database).to.deep.include({ statementTimeoutMs: 2000 });
    expect(config.publicBaseUrl).to.equal('http://localhost:8080');
    expect(config.temporal.address).to.equal('temporal:7233');
  });

  it('keeps two configurations apart, so two app instances can run in one process', () => {
    const a = loadConfig({ PORT: '1' });
    const b = loadConfig({ PORT: '2', PUBLIC_BASE_URL: 'https://cards.example.com/' });
    expect([a.port, b.port]).to.deep.equal([1, 2]);
    expect(b.publicBaseUrl).to.equal('https://cards.example.com');
  });

  const bad: Array<[string, Record<string, string>]> = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://x/y' }],
    ['TEMPORAL_ADDRESS', { TEMPORAL_ADDRESS: 'http://localhost:7233' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'ftp://x' }],
    ['TEMPORAL_UI_PORT', { TEMPORAL_UI_PORT: '-1' }],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', { HTTP_KEEP_ALIVE_TIMEOUT_MS: 'forever' }],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', { HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' }],
    ['DATABASE_STATEMENT_TIMEOUT_MS', { DATABASE_STATEMENT_TIMEOUT_MS: 'soon' }],
    ['DATABASE_STATEMENT_TIMEOUT_MS', { DATABASE_STATEMENT_TIMEOUT_MS: '50' }],
  ];
  for (const [name, env] of bad) {
    it(`refuses a bad ${name} (${JSON.stringify(Object.values(env)[0])}) with one line naming it`, () => {
      expect(() => loadConfig(env)).to.throw(ConfigError).that.satisfies((err: Error) => {
        expect(err.message).to.match(new RegExp(`^Invalid configuration: ${name}: `));
        expect(err.message).not.to.include('\n');
        return true;
      });
    });
  }

  it('reads the rewards keys from the files REWARDS_ENCRYPTION_KEY_FILE and _PREVIOUS_FILE name (Docker secrets)', () => {
    const dir = tempDir();
    const [key, previous] = [randomBytes(32).toString('base64'), randomBytes(32).toString('hex')];
    writeFileSync(join(dir, 'rewards_key'), `${key}\n`);
    writeFileSync(join(dir, 'rewards_key_previous'), previous);
    const config = loadConfig({
      DATA_DIR: dir,
      REWARDS_ENCRYPTION_KEY_FILE: join(dir, 'rewards_key'),
      REWARDS_ENCRYPTION_KEY_PREVIOUS_FILE: join(dir, 'rewards_key_previous'),
    });
    expect(config.dataKey).to.deep.include({ key: undefined, keyFile: join(dir, 'rewards_key'), previousKeyFile: join(dir, 'rewards_key_previous') });
    const keys = loadDataKeys(config)!;
    expect(keys.source).to.equal(join(dir, 'rewards_key'));
    expect(keys.current.bytes.toString('base64')).to.equal(key);
    expect(keys.previous?.bytes.toString('hex')).to.equal(previous);
    expect(loadConfig({ REWARDS_ENCRYPTION_KEY_FILE: 'secrets/k' }).dataKey.keyFile).to.equal(join(packageRoot, 'secrets', 'k'));

    // A named file that is missing or malformed is an error naming the variable and the file (no key is generated).
    const missing = loadConfig({ DATA_DIR: dir, REWARDS_ENCRYPTION_KEY_FILE: join(dir, 'absent') });
    expect(() => loadDataKeys(missing)).to.throw(DataKeyError, `REWARDS_ENCRYPTION_KEY_FILE: cannot read ${join(dir, 'absent')} (ENOENT)`);
    writeFileSync(join(dir, 'short'), 'c2hvcnQ=');
    const malformed = loadConfig({ DATA_DIR: dir, REWARDS_ENCRYPTION_KEY_FILE: join(dir, 'short') });
    expect(() => loadDataKeys(malformed)).to.throw(DataKeyError, `REWARDS_ENCRYPTION_KEY_FILE (${join(dir, 'short')}): expected 32 bytes`);

    // The variable and its file together are ambiguous: refused in one line.
    for (const name of ['REWARDS_ENCRYPTION_KEY', 'REWARDS_ENCRYPTION_KEY_PREVIOUS']) {
      expect(() => loadConfig({ [name]: key, [`${name}_FILE`]: join(dir, 'rewards_key') })).to.throw(
        ConfigError,
        `Invalid configuration: ${name}_FILE: set ${name} or ${name}_FILE, not both`,
      );
    }
  });

  describe('DATA_ENCRYPTION_KEY and its older name REWARDS_ENCRYPTION_KEY', () => {
    const [key, other] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];

    it('reads DATA_ENCRYPTION_KEY and _PREVIOUS, naming them in messages', () => {
      const keys = loadDataKeys(loadConfig({ DATA_DIR: tempDir(), DATA_ENCRYPTION_KEY: key, DATA_ENCRYPTION_KEY_PREVIOUS: other }))!;
      expect(keys.current.bytes.toString('base64')).to.equal(key);
      expect(keys.previous?.bytes.toString('base64')).to.equal(other);
      expect(keys.source).to.equal('DATA_ENCRYPTION_KEY');
      expect(() => loadDataKeys(loadConfig({ DATA_DIR: tempDir(), DATA_ENCRYPTION_KEY: 'short' }))).to.throw(DataKeyError, /^DATA_ENCRYPTION_KEY: expected 32 bytes/);
    });

    it('reads DATA_ENCRYPTION_KEY_FILE and _PREVIOUS_FILE', () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'k'), key);
      writeFileSync(join(dir, 'p'), other);
      const keys = loadDataKeys(loadConfig({ DATA_DIR: dir, DATA_ENCRYPTION_KEY_FILE: join(dir, 'k'), DATA_ENCRYPTION_KEY_PREVIOUS_FILE: join(dir, 'p') }))!;
      expect([keys.current.bytes.toString('base64'), keys.previous?.bytes.toString('base64')]).to.deep.equal([key, other]);
    });

    it('accepts both names set to the same key', () => {
      const keys = loadDataKeys(loadConfig({ DATA_DIR: tempDir(), DATA_ENCRYPTION_KEY: key, REWARDS_ENCRYPTION_KEY: key }))!;
      expect(keys.current.bytes.toString('base64')).to.equal(key);
    });

    for (const suffix of ['', '_PREVIOUS', '_FILE', '_PREVIOUS_FILE']) {
      it(`refuses DATA_ENCRYPTION_KEY${suffix} and REWARDS_ENCRYPTION_KEY${suffix} set to different values, in one line`, () => {
        const [a, b] = suffix.endsWith('FILE') ? ['/run/secrets/a', '/run/secrets/b'] : [key, other];
        expect(() => loadConfig({ [`DATA_ENCRYPTION_KEY${suffix}`]: a, [`REWARDS_ENCRYPTION_KEY${suffix}`]: b })).to.throw(
          ConfigError,
          `Invalid configuration: DATA_ENCRYPTION_KEY${suffix} and REWARDS_ENCRYPTION_KEY${suffix} name the same key but differ: set one of them`,
        );
      });
    }

    it('refuses a key under one name and a key file under the other', () => {
      expect(() => loadConfig({ DATA_ENCRYPTION_KEY: key, REWARDS_ENCRYPTION_KEY_FILE: '/run/secrets/k' })).to.throw(
        ConfigError,
        'Invalid configuration: DATA_ENCRYPTION_KEY_FILE: set DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_KEY_FILE, not both',
      );
    });
  });

  it('hides a database password when printing the URL', () => {
    expect(redactDatabaseUrl('mysql://root:s3cret@db:3306/cards')).to.equal('mysql://root:***@db:3306/cards');
    expect(redactDatabaseUrl('sqlite:/tmp/x.sqlite')).to.equal('sqlite:/tmp/x.sqlite');
  });
});
