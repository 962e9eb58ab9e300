import { expect } from 'chai';
import { call, expectFailure, expectSuccess, newAccount, newKey } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';

const infoOf = (body: Record<string, unknown>) => body.data as { usage_this_hour: number; rate_limit: { per_minute: number; per_hour: number } };

describe('rate limits', function () {
  this.timeout(120_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  it('puts X-RateLimit headers on every authenticated response, errors included', async () => {
    const account = await newAccount(stack.models);
    for (const path of ['/v2/api/key/info', '/v2/api/nowhere']) {
      const res = await call(stack.url, 'GET', path, { key: account.liveKey });
      expect(res.headers.get('x-ratelimit-limit'), path).to.equal('120');
      expect(Number(res.headers.get('x-ratelimit-remaining')), path).to.be.within(0, 119);
      expect(Number(res.headers.get('x-ratelimit-reset')), path).to.be.within(1, 60);
    }
  });

  it('counts usage this hour in /key/info, rising with each request', async () => {
    const account = await newAccount(stack.models);
    const first = infoOf((await call(stack.url, 'GET', '/v2/api/key/info', { key: account.liveKey })).body);
    await call(stack.url, 'GET', '/v2/api/nowhere', { key: account.liveKey });
    const third = infoOf((await call(stack.url, 'GET', '/v2/api/key/info', { key: account.liveKey })).body);
    expect(first.usage_this_hour).to.equal(1);
    expect(third.usage_this_hour).to.equal(3);
  });

  it('with the clock inside one minute, the 121st request is 429 with Retry-After and does not count', async () => {
    const account = await newAccount(stack.models);
    const clock = new Date('2032-01-01T10:00:15Z');
    const app = await extraApp({ now: () => clock });
    for (let i = 1; i <= 120; i++) {
      const res = await call(app.url, 'GET', '/v2/api/key/info', { key: account.liveKey });
      expect(res.status, `request ${i}`).to.equal(200);
      if (i === 120) expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
    }
    const refused = await call(app.url, 'GET', '/v2/api/key/info', { key: account.liveKey });
    expectFailure(refused, 429, 'rate_limited');
    expect(refused.headers.get('retry-after')).to.equal('45');
    expect(refused.headers.get('x-ratelimit-reset')).to.equal('45');
    expect(refused.headers.get('x-ratelimit-remaining')).to.equal('0');
    // Another key of the same account has its own counters.
    expectSuccess(await call(app.url, 'GET', '/v2/api/key/info', { key: account.sandboxKey }));
    // The next minute opens again; the hour kept 120, not 121 (the refused request did not count).
    clock.setTime(Date.parse('2032-01-01T10:01:00Z'));
    const next = await call(app.url, 'GET', '/v2/api/key/info', { key: account.liveKey });
    expect(infoOf(next.body).usage_this_hour).to.equal(121);
  });

  it('holds across two API instances sharing the database, sending in parallel', async () => {
    const account = await newAccount(stack.models);
    const clock = () => new Date('2032-02-02T12:30:05Z');
    const [a, b] = await Promise.all([extraApp({ now: clock }), extraApp({ now: clock })]);
    const results = await Promise.all(
      Array.from({ length: 121 }, (_, i) => call(i % 2 ? a.url : b.url, 'GET', '/v2/api/key/info', { key: account.liveKey })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(120);
    expect(statuses.filter((s) => s === 429)).to.have.length(1);
  });

  it('enforces the hour window too, with a moved clock (plan limits from configuration)', async () => {
    const account = await newAccount(stack.models);
    const { key } = await newKey(stack.models, account.accountId, { ecards: 'view' });
    const clock = new Date('2032-03-03T09:10:00Z');
    const app = await extraApp({ now: () => clock, env: { RATE_LIMITS: 'free=100/3,pro=600/50000,enterprise=3000/250000' } });
    for (const at of ['09:10:00', '09:25:00', '09:40:00']) {
      clock.setTime(Date.parse(`2032-03-03T${at}Z`));
      expect((await call(app.url, 'GET', '/v2/api/key/info', { key })).status, at).to.equal(200);
    }
    clock.setTime(Date.parse('2032-03-03T09:59:30Z'));
    const refused = await call(app.url, 'GET', '/v2/api/key/info', { key });
    expectFailure(refused, 429, 'rate_limited');
    expect(refused.headers.get('x-ratelimit-limit')).to.equal('3');
    expect(refused.headers.get('retry-after')).to.equal('30');
    clock.setTime(Date.parse('2032-03-03T10:00:00Z'));
    const nextHour = await call(app.url, 'GET', '/v2/api/key/info', { key });
    expectSuccess(nextHour);
    expect(infoOf(nextHour.body).rate_limit).to.deep.equal({ per_minute: 100, per_hour: 3 });
    expect(infoOf(nextHour.body).usage_this_hour).to.equal(1);
  });

  it('follows the plan of the account', async () => {
    const account = await newAccount(stack.models, 'pro');
    const res = await call(stack.url, 'GET', '/v2/api/key/info', { key: account.liveKey });
    expect(infoOf(res.body).rate_limit).to.deep.equal({ per_minute: 600, per_hour: 50000 });
    expect(res.headers.get('x-ratelimit-limit')).to.equal('600');
  });

  it('prunes finished windows when a key opens a new minute', async () => {
    const account = await newAccount(stack.models);
    const clock = new Date('2032-04-04T07:58:10Z');
    const app = await extraApp({ now: () => clock });
    for (const at of ['07:58:10', '07:59:10', '08:00:10', '08:01:10']) {
      clock.setTime(Date.parse(`2032-04-04T${at}Z`));
      expect((await call(app.url, 'GET', '/v2/api/key/info', { key: account.liveKey })).status).to.equal(200);
    }
    const hour = Date.parse('2032-04-04T08:00:00Z') / 1000;
    const expected = [
      [60, hour + 60],
      [3600, hour],
    ];
    // Pruning is not awaited by the request.
    const windows = await eventually(
      async () => {
        const [rows] = await stack.models.sequelize.query(
          'SELECT window_seconds, window_start FROM rate_limit_counters WHERE api_key_id = ? ORDER BY window_seconds, window_start',
          { replacements: [account.liveKeyId] },
        );
        return (rows as Array<{ window_seconds: number; window_start: number | string }>).map((r) => [Number(r.window_seconds), Number(r.window_start)]);
      },
      (found) => JSON.stringify(found) === JSON.stringify(expected),
    );
    expect(windows).to.deep.equal(expected);
  });
});
