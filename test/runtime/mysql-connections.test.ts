import { expect } from 'chai';
import { createSequelize, isDatabaseUnreachable, withoutStatementTimeout } from '../../lib/db.ts';
import { mysqlUrl } from '../helpers/env.ts';

// The MySQL connections' settings on a real server. DATABASE_STATEMENT_TIMEOUT_MS: a statement past it fails as
// "unreachable" (the API's 503) and its connection is not reused; migrations' connections go without it.
describe('MySQL connections: the statement timeout', function () {
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

// The server's prepared statements are global (max_prepared_stmt_count): each connection keeps a bounded number.
describe('MySQL connections: prepared statements', function () {
  this.timeout(60_000);
  before(function () {
    if (!mysqlUrl) this.skip();
  });

  it('400 different statements with bind parameters on one connection leave at most 128 prepared on the server', async () => {
    const sequelize = createSequelize({ dialect: 'mysql', url: mysqlUrl! });
    const prepared = async () => {
      const [[row]] = (await sequelize.query("SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'")) as [[{ Value: string }], unknown];
      return Number(row.Value);
    };
    try {
      const before = await prepared();
      // Each text new, as an UPDATE … WHERE id IN (…) of a batch is: Sequelize runs them as prepared statements.
      for (let i = 0; i < 400; i++) await sequelize.query(`SELECT $1 + ${i} AS n`, { bind: [1] });
      const held = (await prepared()) - before;
      // Without the bound: 400 (mysql2 keeps 16,000 per connection). Other tests' connections may add a few meanwhile.
      expect(held).to.be.at.most(128 + 20);
    } finally {
      await sequelize.close();
    }
  });
});
