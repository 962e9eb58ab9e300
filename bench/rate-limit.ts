// `npm run bench`: requests per second of an authenticated API call with the database-backed rate limiter
// on, against the same app with it off, measured in the same run (alternating rounds) and reported as a ratio.
// Settings: BENCH_SECONDS (per round, default 3), BENCH_ROUNDS (default 3), BENCH_CONCURRENCY (default 16),
// DATABASE_URL (default: a fresh SQLite file).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../api/app.ts';
import { listen } from '../api/server.ts';
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { openDatabase } from '../app/runtime.ts';
import { createServices } from '../app/services.ts';
import { probeConnection } from '../lib/temporal.ts';
import { createAccount } from '../services/accounts.ts';
import type { RateLimiter } from '../services/rate-limits.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const dataDir = mkdtempSync(join(tmpdir(), 'cardsvc-bench-'));
const config = loadConfig({
  DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${join(dataDir, 'bench.sqlite')}`,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  // Limits far above what the bench sends: every request is counted, none refused.
  RATE_LIMITS: 'free=100000000/100000000,pro=1/1,enterprise=1/1',
});
const models = await openDatabase(config, 'migrate');
const { liveKey } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-${Date.now()}@example.com` });
const services = createServices({ config, logger: createLogger(config), models });
const readinessProbe = probeConnection('127.0.0.1:1');

const off: RateLimiter = {
  consume: async () => ({ allowed: true, limit: 1, remaining: 1, resetSeconds: 60, usageThisHour: 0 }),
};
const servers = {
  on: await listen(createApp(services, { readinessProbe }), 0, '127.0.0.1'),
  off: await listen(createApp(services, { readinessProbe, rateLimiter: off }), 0, '127.0.0.1'),
};

async function measure(url: string): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const res = await fetch(`${url}/v2/api/key/info`, { headers: { Authorization: `Bearer ${liveKey}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`unexpected status ${res.status}`);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / seconds;
}

console.log(`database ${config.database.dialect}, ${concurrency} concurrent clients, ${rounds} rounds of ${seconds} s each`);
await measure(servers.off.url); // warm-up
const totals = { on: 0, off: 0 };
for (let round = 1; round <= rounds; round++) {
  const offRate = await measure(servers.off.url);
  const onRate = await measure(servers.on.url);
  totals.off += offRate;
  totals.on += onRate;
  console.log(`round ${round}: limiter off ${offRate.toFixed(0)} req/s, on ${onRate.toFixed(0)} req/s, ratio ${(onRate / offRate).toFixed(2)}`);
}
console.log(`limiter on / off: ${(totals.on / totals.off).toFixed(2)} (goal ≥ 0.90)`);

await servers.on.close();
await servers.off.close();
await readinessProbe.close();
await services.close();
await models.sequelize.close();
