import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../lib/config.ts';
import { ensureDataKeys, loadDataKeys, requireDataKeys, dataKeyFile, DataKeyError } from '../../lib/data-key.ts';
import { entryPoint } from '../helpers/cli.ts';
import { freshSqliteUrl } from '../helpers/database.ts';
import { baseEnv, mysqlUrl, tempDir } from '../helpers/env.ts';

const newKey = () => randomBytes(32).toString('base64');

/** A DATA_DIR holding the key file, as `npm start` leaves it. */
function dataDirWithKey(key = newKey()): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'secrets'));
  writeFileSync(dataKeyFile(dir), `${key}\n`, { mode: 0o600 });
  return dir;
}

describe('rewards encryption key', function () {
  this.timeout(60_000);

  describe('entry points', () => {
    // Each start here uses its own SQLite file or no database at all: CI runs them once, in the SQLite pass.
    before(function () {
      if (mysqlUrl) this.skip();
    });
    for (const [name, part] of [['api', 'the API'], ['worker', 'the worker']] as const) {
      it(`npm run ${name} refuses to start without a key, naming DATA_ENCRYPTION_KEY and the key file, and makes none`, async () => {
        const dataDir = tempDir();
        // A Temporal address so the check before it passes; nothing is reached before the key check stops it.
        const result = await entryPoint(name, baseEnv({ DATABASE_URL: freshSqliteUrl(), DATA_DIR: dataDir, TEMPORAL_ADDRESS: '127.0.0.1:1' }));
        expect(result.code).to.equal(1);
        expect(result.stderr.trim().split('\n')).to.deep.equal([
          `npm run ${name}: ${part} needs the data encryption key: set DATA_ENCRYPTION_KEY (32 bytes, base64: openssl rand -base64 32) or put it in ${dataKeyFile(dataDir)}`,
        ]);
        expect(existsSync(join(dataDir, 'secrets'))).to.equal(false);
      });

      it(`npm run ${name} gets past the key check with the key file in DATA_DIR/secrets`, async () => {
        const result = await entryPoint(name, baseEnv({ DATABASE_URL: freshSqliteUrl(), DATA_DIR: dataDirWithKey(), TEMPORAL_ADDRESS: '127.0.0.1:1' }));
        expect(result.code).to.equal(1);
        expect(result.stderr).to.not.match(/REWARDS_ENCRYPTION_KEY|rewards\.key/);
        expect(result.stderr).to.match(/migration\(s\) pending/);
      });
    }

    it('npm run api stops at a malformed key with one line naming the variable', async () => {
      const result = await entryPoint('api', baseEnv({ DATABASE_URL: freshSqliteUrl(), DATA_DIR: tempDir(), TEMPORAL_ADDRESS: '127.0.0.1:1', REWARDS_ENCRYPTION_KEY: 'not-a-key' }));
      expect(result.code).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
      expect(result.stderr).to.match(/^npm run api: REWARDS_ENCRYPTION_KEY: expected 32 bytes as base64 or 64 hex digits/);
      expect(result.stderr).to.not.include('not-a-key');
    });

    it('npm start generates DATA_DIR/secrets/rewards.key (0600) with a warning naming DATA_ENCRYPTION_KEY once, then reuses it', async () => {
      const dataDir = tempDir();
      const file = dataKeyFile(dataDir);
      // An unreachable database stops it right after the key step: no Temporal server is started.
      const env = baseEnv({ DATA_DIR: dataDir, DATABASE_URL: 'mysql://root@127.0.0.1:1/cards' });
      const first = await entryPoint('start', env);
      expect(first.code).to.equal(1);
      const warnings = first.stderr.split('\n').filter((l) => l.includes('ENCRYPTION_KEY'));
      expect(warnings).to.have.length(1);
      // The variable by its current name, never the older REWARDS_ENCRYPTION_KEY.
      expect(warnings[0]).to.include(file).and.match(/^Warning: no DATA_ENCRYPTION_KEY, .*back it up.*set DATA_ENCRYPTION_KEY instead/);
      expect(warnings[0]).to.not.include('REWARDS_ENCRYPTION_KEY');
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      const key = readFileSync(file, 'utf8');
      expect(Buffer.from(key.trim(), 'base64')).to.have.length(32);
      expect(first.stderr).to.not.include(key.trim());

      const second = await entryPoint('start', env);
      expect(second.code).to.equal(1);
      expect(second.stderr).to.not.include('ENCRYPTION_KEY');
      expect(readFileSync(file, 'utf8')).to.equal(key);
    });
  });

  describe('loading', () => {
    it('ensureDataKeys writes a 0600 key file when there is none, and a second call reads it back', () => {
      const config = loadConfig(baseEnv({ DATA_DIR: tempDir() }));
      expect(loadDataKeys(config)).to.equal(undefined);
      expect(() => requireDataKeys(config, 'the API')).to.throw(DataKeyError, /DATA_ENCRYPTION_KEY/);
      const first = ensureDataKeys(config);
      const file = dataKeyFile(config.dataDir);
      expect(first.generated).to.equal(file);
      expect(first.keys.source).to.equal(file);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      const second = ensureDataKeys(config);
      expect(second.generated).to.equal(undefined);
      expect(second.keys.current.id).to.equal(first.keys.current.id);
      expect(second.keys.current.bytes.equals(first.keys.current.bytes)).to.equal(true);
      expect(requireDataKeys(config, 'the API').current.id).to.equal(first.keys.current.id);
    });

    it('prefers REWARDS_ENCRYPTION_KEY to the key file, and ensureDataKeys then writes nothing', () => {
      const fileKey = newKey();
      const variable = newKey();
      const dataDir = dataDirWithKey(fileKey);
      const fromFile = loadDataKeys(loadConfig(baseEnv({ DATA_DIR: dataDir })))!;
      const config = loadConfig(baseEnv({ DATA_DIR: dataDir, REWARDS_ENCRYPTION_KEY: variable }));
      const keys = loadDataKeys(config)!;
      expect(keys.source).to.equal('REWARDS_ENCRYPTION_KEY');
      expect(keys.current.bytes.toString('base64')).to.equal(variable);
      expect(keys.current.id).to.not.equal(fromFile.current.id);

      const bare = tempDir();
      const ensured = ensureDataKeys(loadConfig(baseEnv({ DATA_DIR: bare, REWARDS_ENCRYPTION_KEY: variable })));
      expect(ensured.generated).to.equal(undefined);
      expect(existsSync(dataKeyFile(bare))).to.equal(false);
    });

    it('takes 64 hex digits too, and a previous key while rotating', () => {
      const hex = randomBytes(32).toString('hex');
      const previous = newKey();
      const keys = loadDataKeys(loadConfig(baseEnv({ DATA_DIR: tempDir(), REWARDS_ENCRYPTION_KEY: hex, REWARDS_ENCRYPTION_KEY_PREVIOUS: previous })))!;
      expect(keys.current.bytes.toString('hex')).to.equal(hex);
      expect(keys.previous?.bytes.toString('base64')).to.equal(previous);
      expect(keys.byId(keys.previous!.id)).to.equal(keys.previous);
      expect(keys.byId('00000000')).to.equal(undefined);
    });

    it('calls a malformed key a clear error naming where it came from, never echoing it', () => {
      const short = Buffer.alloc(16, 1).toString('base64');
      for (const [env, origin] of [
        [{ REWARDS_ENCRYPTION_KEY: short }, 'REWARDS_ENCRYPTION_KEY'],
        [{ REWARDS_ENCRYPTION_KEY: 'g'.repeat(64) }, 'REWARDS_ENCRYPTION_KEY'],
        [{ REWARDS_ENCRYPTION_KEY: newKey(), REWARDS_ENCRYPTION_KEY_PREVIOUS: 'tooshort' }, 'REWARDS_ENCRYPTION_KEY_PREVIOUS'],
      ] as const) {
        const config = loadConfig(baseEnv({ DATA_DIR: tempDir(), ...env }));
        expect(() => loadDataKeys(config), JSON.stringify(env)).to.throw(DataKeyError, new RegExp(`^${origin}: expected 32 bytes`));
      }
      const dataDir = dataDirWithKey('not a key at all');
      const config = loadConfig(baseEnv({ DATA_DIR: dataDir }));
      expect(() => loadDataKeys(config)).to.throw(DataKeyError, `${dataKeyFile(dataDir)}: expected 32 bytes`);
      // A malformed file is not replaced by a new key: its codes would be lost.
      expect(() => ensureDataKeys(config)).to.throw(DataKeyError);
      expect(readFileSync(dataKeyFile(dataDir), 'utf8')).to.equal('not a key at all\n');
    });
  });
});
