// The statement module's test, run on each database (SQLite by default, MariaDB with DATABASE_URL): every written-out
// statement of lib/written-statements.ts against a real database, beside what Sequelize's own model API writes and
// answers for the same values, so a change of the library under them (its escape of values, dates and booleans,
// the id and rows changed a write answers, its error classes, a deadlock ending the transaction) fails here.
import { expect } from 'chai';
import { DatabaseError, ForeignKeyConstraintError, UniqueConstraintError } from 'sequelize';
import { writeTransaction } from '../../lib/db.ts';
import { addIfWithinLimit, addWithinLimit, countingUpsert, insertRows, runSelect, runWrite } from '../../lib/written-statements.ts';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('the written-out statements (lib/written-statements.ts) on this database', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const quotaRow = 'INSERT INTO quota_usage (account_id, month, used) VALUES (?, ?, ?)';

  it('insertRows writes a row as the model\'s create does: text needing escapes, a date\'s milliseconds, booleans, NULL; its id is the new row\'s', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models);
    const values = {
      account_id: accountId,
      event_type: 'test',
      source: 'api',
      member_id: null,
      // Quotes, a backslash, a replacement's marks and characters beyond the BMP, as Sequelize's escape must keep them.
      payload: JSON.stringify({ text: 'it\'s "quoted" \\ back ? :name $1 ✉️ 𝄞', n: [1, 2] }),
      occurred_at: new Date('2031-03-04T05:06:07.089Z'),
      redact_after_delivery: true,
    };
    const eventId = crypto.randomUUID();
    const id = await writeTransaction(models.sequelize, (t) => insertRows(models.OutboxEvent, [{ ...values, event_id: eventId }], t));
    const created = await models.OutboxEvent.create({ ...values, event_id: crypto.randomUUID() });
    const written = await models.OutboxEvent.findByPk(id);
    expect(written?.event_id).to.equal(eventId);
    const plain = (e: typeof created) => ({ ...e.get({ plain: true }), id: undefined, event_id: undefined });
    expect(plain(written!)).to.deep.equal(plain((await models.OutboxEvent.findByPk(created.id))!));
    expect(written!.occurred_at).to.deep.equal(values.occurred_at);
    expect(written!.redact_after_delivery).to.equal(true);
    expect(JSON.parse(written!.payload)).to.deep.equal(JSON.parse(values.payload));
    // Several rows in one statement, each as its own create.
    const many = [{ ...values, event_id: crypto.randomUUID(), redact_after_delivery: false }, { ...values, event_id: crypto.randomUUID(), member_id: null }];
    await writeTransaction(models.sequelize, (t) => insertRows(models.OutboxEvent, many, t));
    const rows = await models.OutboxEvent.findAll({ where: { event_id: many.map((m) => m.event_id) }, order: [['id', 'ASC']] });
    expect(rows.map((r) => [r.event_id, r.redact_after_delivery, r.occurred_at.getTime()])).to.deep.equal(many.map((m) => [m.event_id, m.redact_after_delivery, m.occurred_at.getTime()]));
  });

  it('insertRows fills the model\'s defaults and timestamps as create does: a send and its recipient given only what is required', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models);
    const widget = await insertWidget(models, accountId);
    const ecard = await insertEcard(models, accountId, widget.id);
    const at = new Date('2031-05-06T07:08:09.010Z');
    // Only the columns without a default (and not nullable): everything else is the model's to fill in.
    const send = (sendId: string) => ({
      send_id: sendId, account_id: accountId, ecard_id: ecard.id, widget_id: widget.id, mode: 'email' as const, status: 'pending' as const, sandbox: false,
      sender_name: 'Sam', sender_email: 'sam@example.com', send_at: at, stat_vanity_id: sendId.replaceAll('-', '').slice(0, 24),
    });
    const [writtenId, createdId] = [crypto.randomUUID(), crypto.randomUUID()];
    const sendPk = await writeTransaction(models.sequelize, (t) => insertRows(models.Send, [send(writtenId)], t, at));
    // create's types ask for two columns that have defaults: given as those defaults.
    const created = await models.Send.create({ ...send(createdId), locale: 'en', quota_count: 0 });
    const plain = (row: { get(options: { plain: true }): object }, ...drop: string[]) => Object.fromEntries(Object.entries(row.get({ plain: true })).filter(([k]) => !drop.includes(k)));
    const [written, made] = [(await models.Send.findByPk(sendPk))!, (await models.Send.findByPk(created.id))!];
    expect(plain(written, 'id', 'send_id', 'stat_vanity_id', 'created_at', 'updated_at')).to.deep.equal(plain(made, 'id', 'send_id', 'stat_vanity_id', 'created_at', 'updated_at'));
    // The defaults are there, not NULLs: a send starts with no emails, no workflow, no gift reserved.
    expect(written).to.deep.include({ emails_sent: 0, workflow_started: false, locale: 'en', origin: 'single', quota_count: 0, created_at: at, updated_at: at });
    const recipient = (sendPkOf: number) => ({ send_id: sendPkOf, position: 1, recipient_name: 'Rita', recipient_email: 'rita@example.com' });
    await writeTransaction(models.sequelize, (t) => insertRows(models.SendRecipient, [recipient(sendPk)], t));
    await models.SendRecipient.create(recipient(created.id));
    const [own, other] = await Promise.all([sendPk, created.id].map(async (pk) => (await models.SendRecipient.findOne({ where: { send_id: pk } }))!));
    expect(plain(own!, 'id', 'send_id')).to.deep.equal(plain(other!, 'id', 'send_id'));
    expect(own).to.deep.include({ status: 'pending', thanks_count: 0 });
  });

  it('a write answers the new row\'s id and the rows changed; a SELECT its rows; a duplicate is a UniqueConstraintError and nothing of its transaction stays', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models);
    const first = await writeTransaction(models.sequelize, (t) => runWrite(models.sequelize, t, quotaRow, [accountId, '2031-01', 3]));
    expect(first.affectedRows).to.equal(1);
    const err = await writeTransaction(models.sequelize, async (t) => {
      await runWrite(models.sequelize, t, quotaRow, [accountId, '2031-02', 7]);
      await runWrite(models.sequelize, t, quotaRow, [accountId, '2031-01', 5]);
    }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(UniqueConstraintError);
    const rows = await models.QuotaUsage.findAll({ where: { account_id: accountId }, raw: true });
    expect(rows.map((r) => [r.month, r.used])).to.deep.equal([['2031-01', 3]]);
    const updated = await writeTransaction(models.sequelize, (t) => runWrite(models.sequelize, t, 'UPDATE quota_usage SET used = used + 1 WHERE account_id = ?', [accountId]));
    expect(updated.affectedRows).to.equal(1);
    const selected = await writeTransaction(models.sequelize, (t) => runSelect(models.sequelize, t, 'SELECT month, used FROM quota_usage WHERE account_id = ?', [accountId]));
    expect(selected.map((r) => [r.month, Number(r.used)])).to.deep.equal([['2031-01', 4]]);
    // An auto-increment id comes back as the new row's.
    const event = await writeTransaction(models.sequelize, (t) =>
      runWrite(models.sequelize, t, "INSERT INTO event_outbox (event_id, account_id, event_type, source, payload, occurred_at, redact_after_delivery) VALUES (?, ?, 'test', 'api', '{}', '2031-01-01 00:00:00.000', 0)", [crypto.randomUUID(), accountId]));
    expect(event.insertId).to.be.above(0);
    expect((await models.OutboxEvent.findByPk(event.insertId))?.account_id).to.equal(accountId);
  });

  it('a missing parent is a ForeignKeyConstraintError, bad SQL a DatabaseError (never the driver\'s raw error)', async () => {
    const { models } = stack;
    const missing = await writeTransaction(models.sequelize, (t) => runWrite(models.sequelize, t, quotaRow, [2_000_000_000, '2031-01', 1])).catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(ForeignKeyConstraintError);
    const bad = await writeTransaction(models.sequelize, (t) => runWrite(models.sequelize, t, 'INSERT INTO no_such_table (x) VALUES (1)')).catch((e: unknown) => e);
    expect(bad).to.be.instanceOf(DatabaseError);
    expect((bad as DatabaseError).sql).to.include('no_such_table');
  });

  // The server has rolled the victim back already; Sequelize's query marks its transaction finished so nothing
  // commits it as if its writes had stood: the victim's COMMIT must fail, not silently succeed.
  it('a MySQL deadlock ends the victim\'s transaction: its commit fails and none of its writes stand', async function () {
    const { models } = stack;
    if (models.sequelize.getDialect() !== 'mysql') this.skip();
    const { accountId } = await newAccount(models);
    await models.QuotaUsage.bulkCreate([{ account_id: accountId, month: '2031-05', used: 0 }, { account_id: accountId, month: '2031-06', used: 0 }]);
    const bump = 'UPDATE quota_usage SET used = used + 1 WHERE account_id = ? AND month = ?';
    const [one, two] = [await models.sequelize.transaction(), await models.sequelize.transaction()];
    await runWrite(models.sequelize, one, bump, [accountId, '2031-05']);
    await runWrite(models.sequelize, two, bump, [accountId, '2031-06']);
    const oneWaits = runWrite(models.sequelize, one, bump, [accountId, '2031-06']);
    await new Promise((r) => setTimeout(r, 300));
    const outcomes = await Promise.allSettled([oneWaits, runWrite(models.sequelize, two, bump, [accountId, '2031-05'])]);
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
    await writeTransaction(models.sequelize, (t) => runWrite(models.sequelize, t, bump, [accountId, '2031-05']));
  });

  it('the counting upsert makes the row, then adds within the limit, answering the count after; past the limit it answers null and changes nothing', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models);
    const counter = (n: number, limit?: number) => ({ table: 'quota_usage', key: { account_id: accountId, month: '2032-05' }, column: 'used', n, ...(limit === undefined ? {} : { limit }) });
    const add = (n: number, limit?: number) => writeTransaction(models.sequelize, (t) => addWithinLimit(models.sequelize, t, counter(n, limit)));
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
    // addIfWithinLimit: the same statement, answering whether it fit.
    const fits = (n: number, limit: number) => writeTransaction(models.sequelize, (t) => addIfWithinLimit(models.sequelize, t, counter(n, limit)));
    expect(await fits(4, 20)).to.equal(false);
    expect(await used()).to.equal(17);
    expect(await fits(3, 20)).to.equal(true);
    expect(await used()).to.equal(20);
    // Outside a transaction, the dialect's statement through Sequelize's query.
    const { sql, params } = countingUpsert(models.sequelize.getDialect(), counter(5));
    await models.sequelize.query(sql, { replacements: params });
    expect(await used()).to.equal(25);
  });

  // On MariaDB the eight wait on the row's lock, the case that deadlocked before; SQLite's write queue serialises
  // them, so there it checks only the counts.
  it('the count is what the row holds even when eight transactions add to a new row at once', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models);
    const adds = await Promise.all(Array.from({ length: 8 }, () =>
      writeTransaction(models.sequelize, (t) => addWithinLimit(models.sequelize, t, { table: 'quota_usage', key: { account_id: accountId, month: '2032-06' }, column: 'used', n: 2, limit: 9 }))));
    expect(adds.filter((c) => c !== null).sort((a, b) => a - b)).to.deep.equal([2, 4, 6, 8]);
    expect((await models.QuotaUsage.findOne({ where: { account_id: accountId, month: '2032-06' } }))?.used).to.equal(8);
  });
});
