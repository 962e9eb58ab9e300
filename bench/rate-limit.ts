// P6: requests per second of an authenticated call (`GET /v2/api/key/info`) through the API process with its
// database-backed rate limiter on (limits raised: every request counted, none refused), against the same API in a
// process of its own with the limiter off (bench/api-without-limiter.ts), rounds alternated.
import { createAccount } from '../services/accounts.ts';
import { alternatedRates, startApiProcess, type Pair } from './harness.ts';
import { getRate } from './load.ts';
import type { BenchContext } from './stack.ts';

export const rateLimitPair: Pair<BenchContext> = {
  name: 'p6-rate-limit',
  async run(ctx) {
    const { settings, api } = ctx;
    const { liveKey } = await createAccount(ctx, { name: 'Bench P6', ownerEmail: `bench-limit-${Date.now()}@example.com`, plan: 'enterprise' });
    const off = await startApiProcess(ctx.env, { logFile: ctx.logFile('api-without-limiter.log'), script: 'bench/api-without-limiter.ts' });
    try {
      const side = (url: string) => (seconds: number) => getRate(`${url}/v2/api/key/info`, seconds, settings.concurrency, { Authorization: `Bearer ${liveKey}` });
      const figures = await alternatedRates('P6', { name: 'limiter on', rate: side(api.url) }, { name: 'limiter off', rate: side(off.url) }, settings);
      return [{ name: 'p6-rate-limit', compares: 'key/info with the limiter on vs off', target: '≥ 0.9', unit: 'req/s', ...figures, notes: { concurrency: settings.concurrency } }];
    } finally {
      await off.stop();
    }
  },
};
