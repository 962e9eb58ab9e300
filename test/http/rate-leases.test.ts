import { expect } from 'chai';
import { createRateLimiter, type RateLimiter } from '../../services/rate-limits.ts';
import { call, newAccount, type ApiResponse } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { extraApp, testModels, testStack } from '../helpers/stack.ts';
import type { Models } from '../../models/index.ts';

// Limits where a process leases counts in blocks of 10 (1 % of 1,000 a minute), shrinking to 1 near the limit.
const LEASING = 'free=1000/100000,pro=1000/100000,enterprise=1000/100000';
const usageOf = (res: ApiResponse) => (res.body.data as { usage_this_hour: number }).usage_this_hour;

async function hourCount(models: Models, apiKeyId: number): Promise<number> {
  const [rows] = await models.sequelize.query('SELECT count FROM rate_limit_counters WHERE api_key_id = ? AND window_seconds = 3600', { replacements: [apiKeyId] });
  return Number((rows as Array<{ count: number }>)[0]?.count ?? 0);
}

describe('rate-limit leases across two processes', function () {
  this.timeout(120_000);
  const fail = (err: unknown) => {
    throw err;
  };

  it('two API processes serve exactly the limit between them; usage_this_hour counts what was served', async () => {
    const { models } = await testStack();
    const account = await newAccount(models);
    const clock = new Date('2032-05-05T05:05:05Z');
    const [a, b] = await Promise.all([extraApp({ now: () => clock, env: { RATE_LIMITS: LEASING } }), extraApp({ now: () => clock, env: { RATE_LIMITS: LEASING } })]);
    // Four clients on each process, each calling until it is refused.
    const answers: ApiResponse[] = [];
    const client = async (url: string) => {
      for (;;) {
        const res = await call(url, 'GET', '/v2/api/key/info', { key: account.liveKey });
        answers.push(res);
        if (res.status !== 200) return;
      }
    };
    await Promise.all([a.url, a.url, a.url, a.url, b.url, b.url, b.url, b.url].map(client));
    expect(answers.filter((r) => r.status === 200)).to.have.length(1000);
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused).to.have.length(8);
    for (const res of refused) {
      expect(res.status).to.equal(429);
      expect(res.body.code).to.equal('rate_limited');
      expect(res.headers.get('retry-after')).to.equal('55');
      expect(res.headers.get('x-ratelimit-limit')).to.equal('1000');
      expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
      expect(res.headers.get('x-ratelimit-reset')).to.equal('55');
    }

    // The next minute: 1,000 served this hour, so this request is the 1,001st.
    clock.setTime(Date.parse('2032-05-05T05:06:05Z'));
    const next = await call(a.url, 'GET', '/v2/api/key/info', { key: account.liveKey });
    expect(usageOf(next)).to.equal(1001);
    // That request leased a block; once the key is quiet the process gives the unused counts back, and the other
    // process's next request is the 1,002nd.
    expect(await eventually(() => hourCount(models, account.liveKeyId), (count) => count === 1001, 10_000)).to.equal(1001);
    const after = await call(b.url, 'GET', '/v2/api/key/info', { key: account.liveKey });
    expect(usageOf(after)).to.equal(1002);
  });

  it('gives unused counts back when a process stops and when the minute moves on', async () => {
    const models = await testModels();
    const { liveKeyId } = await newAccount(models);
    const clock = new Date('2033-07-07T07:07:07Z');
    const limits = { perMinute: 1000, perHour: 100_000 };
    const [a, b]: [RateLimiter, RateLimiter] = [createRateLimiter(models.sequelize, () => clock, fail), createRateLimiter(models.sequelize, () => clock, fail)];
    // 25 requests one after another, alternating: each process holds part of a block when they end.
    for (let i = 0; i < 25; i++) expect((await (i % 2 ? b : a).consume(liveKeyId, limits)).allowed).to.equal(true);
    expect(await hourCount(models, liveKeyId)).to.be.above(25);
    await b.close();
    // The next minute: the first process gives back its old lease before it leases again.
    clock.setTime(Date.parse('2033-07-07T07:08:07Z'));
    const next = await a.consume(liveKeyId, limits);
    expect(next).to.deep.include({ allowed: true, usageThisHour: 26, limit: 1000, remaining: 999, resetSeconds: 53 });
    await a.close();
    expect(await hourCount(models, liveKeyId)).to.equal(26);
  });
});
