import { expect } from 'chai';
import { writeTransaction } from '../../lib/db.ts';
import { addWithinLimit } from '../../lib/counting-upsert.ts';
import { transactionRows } from '../../lib/transaction-statement.ts';
import { newAccount } from '../helpers/api.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// One counting upsert serves the quota, a widget's limits and counters and the limiter's MySQL windows: what it
// answers (the count after the add, read from the statement's own answer) and what it refuses, on both databases.
describe('a counting upsert', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  it('makes the row, then adds within the limit, answering the count after; past the limit it answers null and changes nothing', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models);
    const add = (n: number, limit?: number) =>
      writeTransaction(models.sequelize, (t) => addWithinLimit(t, { table: 'quota_usage', key: { account_id: accountId, month: '2032-05' }, column: 'used', n, ...(limit === undefined ? {} : { limit }) }));
    const used = async () => (await models.QuotaUsage.findOne({ where: { account_id: accountId, month: '2032-05' } }))?.used;
    expect(await add(11, 10)).to.equal(null);
    expect(await used()).to.equal(undefined);
    expect(await add(4, 10)).to.equal(4);
    expect(await add(5, 10)).to.equal(9);
    expect(await add(2, 10)).to.equal(null);
    expect(await used()).to.equal(9);
    expect(await add(1, 10)).to.equal(10);
    expect(await add(1, 10)).to.equal(null);
    // Without a limit it only counts.
    expect(await add(7)).to.equal(17);
    expect(await used()).to.equal(17);
  });

  // On MariaDB the eight wait on the row's lock, the case that deadlocked before; SQLite's write queue serialises
  // them, so there it checks only the counts.
  it('the count is what the row holds even when eight transactions add to a new row at once', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models);
    const adds = await Promise.all(Array.from({ length: 8 }, () =>
      writeTransaction(models.sequelize, (t) => addWithinLimit(t, { table: 'quota_usage', key: { account_id: accountId, month: '2032-06' }, column: 'used', n: 2, limit: 9 }))));
    expect(adds.filter((c) => c !== null).sort((a, b) => a - b)).to.deep.equal([2, 4, 6, 8]);
    expect((await models.QuotaUsage.findOne({ where: { account_id: accountId, month: '2032-06' } }))?.used).to.equal(8);
    const rows = await writeTransaction(models.sequelize, (t) => transactionRows(t, 'SELECT used FROM quota_usage WHERE account_id = ?', [accountId]));
    expect(rows.map((r) => Number(r.used))).to.deep.equal([8]);
  });
});
