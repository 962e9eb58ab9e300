import { expect } from 'chai';
import type { Transaction } from 'sequelize';
import { writeTransaction } from '../../lib/db.ts';
import { takeFromDailyCap, takeFromIpWindow } from '../../services/widgets/public/limits.ts';
import { newAccount } from '../helpers/api.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// A widget's limits are one upsert each (the window's and the day's first row made by the same statement), taken
// before the month's quota in a widget send's transaction: what they count and refuse, and on MariaDB two
// transactions making the same first row, which wait in turn (an UPDATE then an INSERT could deadlock there).
describe('a widget\'s limits, one upsert each', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  async function freshWidget() {
    const { accountId } = await newAccount(stack.models);
    return insertWidget(stack.models, accountId);
  }
  const at = new Date('2031-03-04T10:03:00.000Z');
  const ctx = () => ({ ...stack.services, now: () => at });
  const inTransaction = <T>(work: (t: Transaction) => Promise<T>) => writeTransaction(stack.models.sequelize, work);
  const ipWindow = (widgetId: number) => stack.models.WidgetSendWindow.findAll({ where: { widget_id: widgetId }, raw: true });
  const day = async (widgetId: number) => (await stack.models.WidgetCounter.findOne({ where: { widget_id: widgetId, kind: 'cap' } }))?.count;

  it('the IP window counts within its limit and refuses past it, changing nothing; one row per window, hashed', async () => {
    const widget = await freshWidget();
    const take = (n: number, ip = '203.0.113.9') => inTransaction((t) => takeFromIpWindow(ctx(), widget, ip, n, 5, t));
    expect(await take(6)).to.equal(false);
    expect(await ipWindow(widget.id)).to.deep.equal([]);
    expect(await take(3)).to.equal(true);
    expect(await take(3)).to.equal(false);
    expect(await take(2)).to.equal(true);
    expect(await take(1)).to.equal(false);
    expect(await take(1, '198.51.100.1')).to.equal(true);
    const rows = await ipWindow(widget.id);
    expect(rows.map((r) => r.emails).sort()).to.deep.equal([1, 5]);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.ip_hash))).to.equal(true);
    expect(rows.every((r) => new Date(r.window_start).getTime() === Date.parse('2031-03-04T10:00:00.000Z'))).to.equal(true);
  });

  it('the daily cap: taken, then crossed exactly once at 80 %, then full; a first row at 80 % crosses', async () => {
    const widget = await freshWidget();
    const take = (n: number) => inTransaction((t) => takeFromDailyCap(ctx(), widget, n, 10, t));
    expect(await take(11)).to.equal('full');
    expect(await take(5)).to.equal('taken');
    expect(await take(2)).to.equal('taken');
    expect(await take(2)).to.equal('crossed');
    expect(await take(2)).to.equal('full');
    expect(await take(1)).to.equal('taken');
    expect(await take(1)).to.equal('full');
    expect(await day(widget.id)).to.equal(10);
    const other = await freshWidget();
    expect(await inTransaction((t) => takeFromDailyCap(ctx(), other, 8, 10, t))).to.equal('crossed');
  });

  it('MariaDB: a second transaction making the same first rows waits for the first, then counts on top of it', async function () {
    if (!mysqlUrl) this.skip();
    const widget = await freshWidget();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstTook!: () => void;
    const firstDone = new Promise<void>((resolve) => (firstTook = resolve));
    const first = inTransaction(async (t) => {
      const out = [await takeFromIpWindow(ctx(), widget, '203.0.113.9', 2, 5, t), await takeFromDailyCap(ctx(), widget, 7, 10, t)];
      firstTook();
      await held;
      return out;
    });
    await firstDone;
    const second = inTransaction(async (t) => [await takeFromIpWindow(ctx(), widget, '203.0.113.9', 3, 5, t), await takeFromDailyCap(ctx(), widget, 1, 10, t)]);
    // The second waits on the first's row locks: still pending while the first holds them.
    const early = await Promise.race([second.then(() => 'done'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 500))]);
    expect(early).to.equal('waiting');
    release();
    expect(await first).to.deep.equal([true, 'taken']);
    expect(await second).to.deep.equal([true, 'crossed']);
    expect((await ipWindow(widget.id)).map((r) => r.emails)).to.deep.equal([5]);
    expect(await day(widget.id)).to.equal(8);
  });
});
