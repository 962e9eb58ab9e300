// The SQLite connections' settings (lib/db.ts: the pragmas, run by the sqlite3 module handed to Sequelize as its
// `dialectModule`) on every connection Sequelize opens: the one for statements outside transactions, each
// transaction's own, and before the first statement of callers that ask for a new connection at the same time.
import { join } from 'node:path';
import { expect } from 'chai';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { createSequelize } from '../../lib/db.ts';
import { tempDir } from '../helpers/env.ts';

const EXPECTED = { busy_timeout: 200, journal_mode: 'wal', synchronous: 1, foreign_keys: 1 };

async function settings(sequelize: Sequelize, transaction?: Transaction): Promise<typeof EXPECTED> {
  const pragma = async (name: keyof typeof EXPECTED) => {
    const [row] = await sequelize.query<Record<string, unknown>>(`PRAGMA ${name}`, { type: QueryTypes.SELECT, ...(transaction ? { transaction } : {}) });
    return Object.values(row!)[0];
  };
  return {
    busy_timeout: Number(await pragma('busy_timeout')),
    journal_mode: String(await pragma('journal_mode')),
    synchronous: Number(await pragma('synchronous')),
    foreign_keys: Number(await pragma('foreign_keys')),
  };
}

describe('SQLite connections: the pragmas', function () {
  this.timeout(30_000);
  let sequelize: Sequelize;
  beforeEach(() => {
    const storage = join(tempDir(), `pragmas-${Date.now()}.sqlite`);
    sequelize = createSequelize({ dialect: 'sqlite', storage, url: `sqlite:${storage}` });
  });
  afterEach(() => sequelize.close());

  it('are set on the connection outside transactions and on each transaction\'s own', async () => {
    expect(await settings(sequelize)).to.deep.equal(EXPECTED);
    expect(await sequelize.transaction((t) => settings(sequelize, t))).to.deep.equal(EXPECTED);
    expect(await sequelize.transaction((t) => settings(sequelize, t))).to.deep.equal(EXPECTED);
  });

  it('are set before the first statement of callers that open the connection together', async () => {
    const timeouts = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const [row] = await sequelize.query<{ timeout: number }>('PRAGMA busy_timeout', { type: QueryTypes.SELECT });
        return row!.timeout;
      }),
    );
    expect(timeouts).to.deep.equal([200, 200, 200, 200]);
  });
});
