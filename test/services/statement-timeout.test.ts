import { expect } from 'chai';
import { createSequelize, isDatabaseUnreachable, withoutStatementTimeout } from '../../lib/db.ts';
import { mysqlUrl } from '../helpers/env.ts';

// DATABASE_STATEMENT_TIMEOUT_MS on a real MySQL connection: a statement past it fails as "unreachable" (the API's
// 503) and its connection is not reused; migrations' connections go without it.
describe('the statement timeout (MySQL)', function () {
  this.timeout(30_000);
  before(function () {
    if (!mysqlUrl) this.skip();
  });

  it('a statement running past it fails as unreachable, and the next statement gets a fresh connection', async () => {
    const sequelize = createSequelize({ dialect: 'mysql', url: mysqlUrl!, statementTimeoutMs: 300 });
    try {
      const [[{ id: first }]] = (await sequelize.query('SELECT CONNECTION_ID() AS id')) as [[{ id: number }], unknown];
      const slow = await sequelize.query('SELECT SLEEP(2) AS s').then(() => 'answered', (err: unknown) => err);
      expect(isDatabaseUnreachable(slow), String(slow)).to.equal(true);
      const [[{ id: next }]] = (await sequelize.query('SELECT CONNECTION_ID() AS id')) as [[{ id: number }], unknown];
      expect(next).not.to.equal(first);
    } finally {
      await sequelize.close();
    }
  });

  it('without it (migrations), the same statement runs to its end', async () => {
    const db = withoutStatementTimeout({ dialect: 'mysql', url: mysqlUrl!, statementTimeoutMs: 300 });
    expect(db).to.deep.equal({ dialect: 'mysql', url: mysqlUrl });
    const sequelize = createSequelize(db);
    try {
      const [[row]] = (await sequelize.query('SELECT SLEEP(1) AS s')) as [[{ s: number }], unknown];
      expect(Number(row.s)).to.equal(0);
    } finally {
      await sequelize.close();
    }
  });
});
