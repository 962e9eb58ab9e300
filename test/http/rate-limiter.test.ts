import { expect } from 'chai';
import { createRateLimiter } from '../../services/rate-limits.ts';
import { newAccount } from '../helpers/api.ts';
import { testModels } from '../helpers/stack.ts';

describe('the rate limiter under concurrency', function () {
  this.timeout(60_000);
  const fail = (err: unknown) => {
    throw err;
  };

  it('counts concurrent requests of one key in batches and never lets more than the limit through', async () => {
    const models = await testModels();
    const { liveKeyId } = await newAccount(models);
    const clock = () => new Date('2033-06-06T06:06:06Z');
    // Two limiters on one database, as two API processes.
    const [a, b] = [createRateLimiter(models.sequelize, clock, fail), createRateLimiter(models.sequelize, clock, fail)];
    const limits = { perMinute: 120, perHour: 1000 };
    const decisions = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 3 ? a : b).consume(liveKeyId, limits)));
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).to.have.length(120);
    expect(allowed.map((d) => d.remaining).sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 120 }, (_, i) => i));
    for (const refused of decisions.filter((d) => !d.allowed)) {
      expect(refused).to.deep.include({ limit: 120, remaining: 0, resetSeconds: 54 });
    }
    // The refused requests did not count in the hour.
    const [rows] = await models.sequelize.query('SELECT window_seconds, count FROM rate_limit_counters WHERE api_key_id = ? ORDER BY window_seconds', {
      replacements: [liveKeyId],
    });
    expect((rows as Array<{ window_seconds: number; count: number }>).map((r) => [Number(r.window_seconds), Number(r.count)])).to.deep.equal([
      [60, 120],
      [3600, 120],
    ]);
  });

  it('refuses by the hour window with the hour’s reset when the hour is full', async () => {
    const models = await testModels();
    const { liveKeyId } = await newAccount(models);
    const limiter = createRateLimiter(models.sequelize, () => new Date('2033-06-06T06:50:00Z'), fail);
    const decisions = await Promise.all(Array.from({ length: 8 }, () => limiter.consume(liveKeyId, { perMinute: 100, perHour: 5 })));
    expect(decisions.filter((d) => d.allowed)).to.have.length(5);
    expect(decisions.find((d) => !d.allowed)).to.deep.include({ limit: 5, remaining: 0, resetSeconds: 600, usageThisHour: 5 });
  });
});
