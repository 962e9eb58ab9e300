// P7: `POST /v2/api/pub/team-member-actions/upsert` through the API process (validation, the account lock, the
// member and its change event in one transaction) against a bare Koa + mysql2 handler in its own process
// (bench/bare-server.ts) running one `INSERT … ON DUPLICATE KEY UPDATE`, rounds alternated. Each side upserts
// its own rotating set of members (a new job title each call), so after the first pass every call updates a row.
import { createAccount } from '../services/accounts.ts';
import { alternatedRates, type Pair } from './harness.ts';
import { httpLoad } from './load.ts';
import { startBare } from './read.ts';
import type { BenchContext } from './stack.ts';

const MEMBERS = 2000;

export const upsertPair: Pair<BenchContext> = {
  name: 'p7-upsert',
  async run(ctx) {
    const { settings, api } = ctx;
    const { accountId, liveKey } = await createAccount(ctx, { name: 'Bench P7', ownerEmail: `bench-upsert-${Date.now()}@example.com`, plan: 'enterprise' });
    const baseline = await startBare(ctx, { accountId, ecardColumns: ['id'], widgetColumns: ['id'] });
    try {
      let runs = 0;
      // Each run's titles are its own, so every call changes its member (after the first pass, an update).
      const side = (url: string, prefix: string, headers: Record<string, string>) => async (seconds: number) => {
        const run = ++runs;
        const { origin, pathname } = new URL(url);
        const body = JSON.stringify({ email: `${prefix}{{n%${MEMBERS}}}@bench.example.com`, first_name: `M{{n%${MEMBERS}}}`, last_name: 'Bench', job_position: `Title ${run}.{{n}}` });
        return (await httpLoad({ origin, method: 'POST', path: pathname, headers, body, connections: settings.concurrency, seconds })).rate;
      };
      const figures = await alternatedRates(
        'P7',
        { name: 'API upsert', rate: side(`${api.url}/v2/api/pub/team-member-actions/upsert`, 'api', { Authorization: `Bearer ${liveKey}` }) },
        { name: 'bare INSERT … ON DUPLICATE KEY UPDATE', rate: side(`${baseline.url}/members/upsert`, 'bare', {}) },
        settings,
      );
      return [{ name: 'p7-upsert', compares: 'HTTP member upsert vs bare Koa + mysql2 ON DUPLICATE KEY UPDATE', target: '≥ 0.5', unit: 'req/s', ...figures, notes: { concurrency: settings.concurrency, members: MEMBERS } }];
    } finally {
      await baseline.stop();
    }
  },
};
