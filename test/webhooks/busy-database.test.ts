import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import Koa from 'koa';
import { TimeoutError } from 'sequelize';
import sqlite3 from 'sqlite3';
import type { ApiState } from '../../api/context.ts';
import { errorRenderer } from '../../api/middleware/errors.ts';
import { createSequelize, isDatabaseBusy } from '../../lib/db.ts';
import { createLogger } from '../../lib/logger.ts';
import { apiClient, call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { tempDir } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver, type Receiver } from '../helpers/receiver.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { hookPath } from '../helpers/webhooks.ts';

// One client, one request at a time, while the worker writes deliveries: on SQLite every write waits its
// turn (the rate limiter's counter too), so no call may end in a 5xx (seen before: 5 × 500 in 60 test sends).
describe('webhooks: test sends and replays while the worker writes', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let receiver: Receiver;
  let account: TestAccount;
  let busy: TestAccount;
  before(async () => {
    stack = await testStack();
    receiver = await testReceiver();
    account = await newAccount(stack.models, 'enterprise');
    busy = await newAccount(stack.models, 'enterprise');
  });
  const { api } = apiClient(() => stack);

  // Member changes of another account, each fanned out to two subscriptions: deliveries, attempts and
  // workflow starts written by the worker all the while.
  async function keepTheWorkerWriting(until: { done: boolean }): Promise<number> {
    for (const event of ['team_member_created', 'team_member_updated']) {
      expectSuccess(await api('POST', '/pub/team-member-actions/subscribe', { event_type: event, hookUrl: `${receiver.url}${hookPath('load')}` }, busy.liveKey));
    }
    let changes = 0;
    while (!until.done) {
      const email = `load-${++changes}-${process.pid}@example.com`;
      await api('POST', '/pub/team-member-actions/upsert', { email }, busy.liveKey);
      await api('POST', '/pub/team-member-actions/upsert', { email, first_name: 'Loaded' }, busy.liveKey);
    }
    return changes;
  }

  it('60 sequential POST /webhook/test and 60 replays against a live receiver: no response is 5xx', async () => {
    const path = hookPath('busy');
    expectSuccess(await api('POST', '/webhook/ecard-shared-url', { url: `${receiver.url}${path}` }, account.liveKey));
    const until = { done: false };
    const load = keepTheWorkerWriting(until);
    const statuses: number[] = [];
    try {
      let lastTest: { id: number } | undefined;
      for (let i = 0; i < 60; i++) {
        const res = await api('POST', '/webhook/test', {}, account.liveKey);
        statuses.push(res.status);
        if (res.status === 200) lastTest = res.body.data as { id: number };
      }
      expect(lastTest, JSON.stringify(statuses)).to.not.equal(undefined);
      await eventually(() => stack.models.WebhookDelivery.findByPk(lastTest!.id), (d) => d?.status === 'Delivered', 20_000);
      for (let i = 0; i < 60; i++) statuses.push((await api('POST', '/webhook/deliveries/replay', { id: lastTest!.id }, account.liveKey)).status);
    } finally {
      until.done = true;
      expect(await load).to.be.greaterThan(0);
    }
    expect(statuses.filter((s) => s >= 500), JSON.stringify(statuses)).to.deep.equal([]);
    expect(statuses.filter((s) => s === 200)).to.have.length(120);
    // Every test send and every replay reached the receiver.
    await eventually(async () => receiver.at(path), (hits) => hits.length >= 120, 30_000);
  });

  // The load leaves hundreds of member-change deliveries behind: the suite's one worker would still be sending them
  // while the next file's deliveries wait in line behind them (the console's webhook tests saw none in 15 s).
  after(async function () {
    this.timeout(180_000);
    const unfinished = async () =>
      (await stack.models.OutboxEvent.count({ where: { account_id: busy.accountId, drained_at: null } })) +
      (await stack.models.WebhookDelivery.count({ where: { account_id: busy.accountId, finished_at: null } }));
    await eventually(unfinished, (n) => n === 0, 170_000);
  });
});

// The renderer sees what Sequelize really throws when SQLite stays locked: a TimeoutError wrapping the driver's
// SQLITE_BUSY (a DatabaseError, not a ConnectionError), made here by a second connection holding the write lock.
describe('the error renderer: a database still locked after every wait', function () {
  this.timeout(30_000);

  async function busyTimeoutError(): Promise<unknown> {
    const storage = join(tempDir(), 'busy.sqlite');
    const sequelize = createSequelize({ dialect: 'sqlite', storage, url: `sqlite:${storage}` });
    const holder = new sqlite3.Database(storage);
    const exec = (sql: string) => new Promise<void>((ok, fail) => holder.exec(sql, (err) => (err ? fail(err) : ok())));
    try {
      await sequelize.query('CREATE TABLE t (x INTEGER)');
      await exec('BEGIN IMMEDIATE; INSERT INTO t VALUES (0);');
      // One try: past SQLite's own short wait, without Sequelize's seconds of retries.
      return await sequelize.query('INSERT INTO t VALUES (1)', { retry: { max: 1 } }).then(() => undefined, (err: unknown) => err);
    } finally {
      await exec('ROLLBACK').catch(() => undefined);
      await new Promise((done) => holder.close(done));
      await sequelize.close();
    }
  }

  it('answers 503 service_unavailable with Retry-After, never 500, and names nothing of the database', async () => {
    const err = await busyTimeoutError();
    expect(err).to.be.instanceOf(TimeoutError);
    expect(isDatabaseBusy(err)).to.equal(true);

    const app = new Koa<ApiState>();
    app.use(async (ctx, next) => {
      ctx.state.requestId = 'busy-request';
      await next();
    });
    app.use(errorRenderer(createLogger({ logLevel: 'silent' }), () => 'standard'));
    app.use(() => {
      throw err;
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((ready) => server.once('listening', ready));
    onSuiteEnd(() => new Promise((done) => server.close(() => done())));

    const res = await call(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'POST', '/v2/api/webhook/test');
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.equal('5');
    expect(res.body).to.include({ success: false, code: 'service_unavailable', request_id: 'busy-request' });
    expect(JSON.stringify(res.body)).not.to.match(/SQLITE|locked/i);
  });
});
