import { expect } from 'chai';
import { DatabaseError, ForeignKeyConstraintError, UniqueConstraintError } from 'sequelize';
import { writeTransaction } from '../../lib/db.ts';
import { transactionStatement } from '../../lib/transaction-statement.ts';
import { newAccount } from '../helpers/api.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// A statement on the transaction's connection (the accept's writes) fails as Sequelize's own query would: callers
// tell a duplicate (the Idempotency-Key race) from the rest by Sequelize's error classes, on both databases.
describe('a statement on the transaction\'s connection', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const quotaRow = 'INSERT INTO quota_usage (account_id, month, used) VALUES (?, ?, ?)';

  it('answers the new row\'s id and the rows changed; a duplicate is a UniqueConstraintError and nothing of its transaction stays', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models);
    const first = await writeTransaction(models.sequelize, (t) => transactionStatement(t, quotaRow, [accountId, '2031-01', 3]));
    expect(first.affectedRows).to.equal(1);
    const err = await writeTransaction(models.sequelize, async (t) => {
      await transactionStatement(t, quotaRow, [accountId, '2031-02', 7]);
      await transactionStatement(t, quotaRow, [accountId, '2031-01', 5]);
    }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(UniqueConstraintError);
    const rows = await models.QuotaUsage.findAll({ where: { account_id: accountId }, raw: true });
    expect(rows.map((r) => [r.month, r.used])).to.deep.equal([['2031-01', 3]]);
    // An auto-increment id comes back as the new row's.
    const event = await writeTransaction(models.sequelize, (t) =>
      transactionStatement(t, "INSERT INTO event_outbox (event_id, account_id, event_type, source, payload, occurred_at, redact_after_delivery) VALUES (?, ?, 'test', 'api', '{}', '2031-01-01 00:00:00.000', 0)", [crypto.randomUUID(), accountId]));
    expect(event.insertId).to.be.above(0);
    expect((await models.OutboxEvent.findByPk(event.insertId))?.account_id).to.equal(accountId);
  });

  it('a missing parent is a ForeignKeyConstraintError, bad SQL a DatabaseError (never the driver\'s raw error)', async () => {
    const { models } = stack;
    const missing = await writeTransaction(models.sequelize, (t) => transactionStatement(t, quotaRow, [2_000_000_000, '2031-01', 1])).catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(ForeignKeyConstraintError);
    const bad = await writeTransaction(models.sequelize, (t) => transactionStatement(t, 'INSERT INTO no_such_table (x) VALUES (1)')).catch((e: unknown) => e);
    expect(bad).to.be.instanceOf(DatabaseError);
    expect((bad as DatabaseError).sql).to.include('no_such_table');
  });

  // The server has rolled the victim back already; Sequelize's own query marks its transaction finished so nothing
  // commits it as if its writes had stood. Ours must too: the victim's COMMIT must fail, not silently succeed.
  it('a MySQL deadlock ends the victim\'s transaction: its commit fails and none of its writes stand', async function () {
    const { models } = stack;
    if (models.sequelize.getDialect() !== 'mysql') this.skip();
    const { accountId } = await newAccount(models);
    await models.QuotaUsage.bulkCreate([{ account_id: accountId, month: '2031-05', used: 0 }, { account_id: accountId, month: '2031-06', used: 0 }]);
    const bump = 'UPDATE quota_usage SET used = used + 1 WHERE account_id = ? AND month = ?';
    const [one, two] = [await models.sequelize.transaction(), await models.sequelize.transaction()];
    await transactionStatement(one, bump, [accountId, '2031-05']);
    await transactionStatement(two, bump, [accountId, '2031-06']);
    const oneWaits = transactionStatement(one, bump, [accountId, '2031-06']);
    await new Promise((r) => setTimeout(r, 300));
    const outcomes = await Promise.allSettled([oneWaits, transactionStatement(two, bump, [accountId, '2031-05'])]);
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as DatabaseError] : []));
    expect(refused).to.have.length(1);
    expect(refused[0]).to.be.instanceOf(DatabaseError);
    expect((refused[0]!.parent as { errno?: number }).errno).to.equal(1213);
    const [victim, survivor] = outcomes[0].status === 'rejected' ? [one, two] : [two, one];
    expect((victim as unknown as { finished?: string }).finished).to.equal('rollback');
    const commit = await victim.commit().then(() => 'committed', (e: Error) => e.message);
    expect(commit).to.match(/finished with state: rollback/);
    await survivor.commit();
    const rows = await models.QuotaUsage.findAll({ where: { account_id: accountId }, order: [['month', 'ASC']], raw: true });
    expect(rows.map((r) => r.used)).to.deep.equal([1, 1]);
    // Its connection went back to the pool: the pool still serves writes.
    await writeTransaction(models.sequelize, (t) => transactionStatement(t, bump, [accountId, '2031-05']));
  });
});
