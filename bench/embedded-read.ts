// P11: requests per second of `GET /v2/api/ecard/findOne/id/{id}` (P3's read) on the embedded all-in-one as
// `npm start` runs it (bin/start.ts: migrations, its own Temporal dev server, the worker and the API in one process;
// here with DATABASE_URL the bench's MariaDB and its limits raised as the stack's, no SMTP_URL so its mail goes to the
// sink), against the same bare Koa + mysql2 server as P3 (bench/bare-server.ts), rounds alternated, both driven by
// bench/load.ts. Target ≥ 0.4.
import { join } from 'node:path';
import { createAccount } from '../services/accounts.ts';
import { alternatedRates, benchEcard, freePort, startNodeProcess, type Pair } from './harness.ts';
import { getRate } from './load.ts';
import { startBare } from './read.ts';
import type { BenchContext } from './stack.ts';

export const embeddedReadPair: Pair<BenchContext> = {
  name: 'p11-embedded-findone',
  async run(ctx) {
    const { models, settings, env } = ctx;
    const { accountId, liveKey } = await createAccount(ctx, { name: 'Bench P11', ownerEmail: `bench-embedded-${Date.now()}@example.com`, plan: 'enterprise' });
    const ecard = await benchEcard(models, accountId, 'Greetings from {{sender_name}}');
    const columns = Object.values(models.Ecard.getAttributes()).map((a) => a.field!);

    const started = performance.now();
    const port = await freePort();
    const allInOne = await startNodeProcess({
      script: 'bin/start.ts',
      env: {
        PATH: env.PATH, HOME: env.HOME, ...(env.TEMPORAL_CLI_PATH ? { TEMPORAL_CLI_PATH: env.TEMPORAL_CLI_PATH } : {}),
        DATABASE_URL: ctx.databaseUrl, DATA_DIR: join(ctx.dataDir, 'all-in-one'), PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        TEMPORAL_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()),
        REWARDS_ENCRYPTION_KEY: env.REWARDS_ENCRYPTION_KEY!, RATE_LIMITS: env.RATE_LIMITS!, PLAN_EMAILS: env.PLAN_EMAILS!, PLAN_SEATS: env.PLAN_SEATS!,
      },
      port, readyPath: '/readyz', logFile: ctx.logFile('all-in-one.log'),
    });
    console.log(`  P11: npm start ready after ${((performance.now() - started) / 1000).toFixed(0)} s`);
    const baseline = await startBare(ctx, { accountId, ecardColumns: columns, widgetColumns: ['id'] });
    try {
      const auth = { Authorization: `Bearer ${liveKey}` };
      const service = `${allInOne.url}/v2/api/ecard/findOne/id/${ecard.id}`;
      const bare = `${baseline.url}/ecard/${ecard.id}`;
      const one = (await (await fetch(service, { headers: auth })).json()) as { data?: { id: number } };
      const other = (await (await fetch(bare)).json()) as { id: number };
      if (one.data?.id !== ecard.id || other.id !== ecard.id) throw new Error(`P11 findOne: npm start answered ${JSON.stringify(one).slice(0, 200)}, the bare handler eCard ${other.id}, for ${ecard.id}`);
      const figures = await alternatedRates(
        'P11',
        { name: 'npm start findOne', rate: (seconds) => getRate(service, seconds, settings.concurrency, auth) },
        { name: 'bare Koa + mysql2', rate: (seconds) => getRate(bare, seconds, settings.concurrency) },
        settings,
      );
      return [{ name: 'p11-embedded-findone', compares: 'findOne on npm start (all-in-one) vs bare Koa + mysql2', target: '≥ 0.4', unit: 'req/s', ...figures, notes: { concurrency: settings.concurrency } }];
    } finally {
      await baseline.stop();
      await allInOne.stop();
    }
  },
};
