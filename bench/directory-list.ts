// `npm run bench` (second part): the directory list's cost per page at the end of a large directory against
// its cost at the start, measured in the same run (alternating rounds) and reported as a ratio (goal ≈ 1).
// Settings: BENCH_MEMBERS (default 100000), BENCH_ROUNDS (default 3), BENCH_PAGES (pages per sample, default 20),
// DATABASE_URL (default: a fresh SQLite file).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { openDatabase } from '../app/runtime.ts';
import { createAccount } from '../services/accounts.ts';
import { listMembers } from '../services/directory/members.ts';

const memberCount = Number(process.env.BENCH_MEMBERS ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const pagesPerSample = Number(process.env.BENCH_PAGES ?? 20);
const perPage = 500;

const dataDir = mkdtempSync(join(tmpdir(), 'cardsvc-bench-'));
const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${join(dataDir, 'bench.sqlite')}`, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const models = await openDatabase(config, 'migrate');
const { accountId } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-dir-${Date.now()}@example.com`, plan: 'enterprise' });
// Another account's members interleave with this one's, as on a shared database.
const { accountId: neighbourId } = await createAccount(models, { name: 'Neighbour', ownerEmail: `bench-dir-n-${Date.now()}@example.com` });

const at = new Date();
for (let i = 0; i < memberCount; i += 1000) {
  const rows = [];
  for (let j = i; j < Math.min(i + 1000, memberCount); j++) {
    for (const account of [accountId, neighbourId]) {
      rows.push({ account_id: account, email: `m${j}@a${account}.example.com`, employee_id: `E${j}`, first_name: `First ${j}`, last_name: null, job_position: null, date_of_birth: null, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null, disabled: j % 10 === 0, created_at: at, updated_at: at });
    }
  }
  await models.TeamMember.bulkCreate(rows);
}
const firstId = (await models.TeamMember.min<number, InstanceType<typeof models.TeamMember>>('id', { where: { account_id: accountId } }));
const lastId = (await models.TeamMember.max<number, InstanceType<typeof models.TeamMember>>('id', { where: { account_id: accountId } }));

// Reads `pagesPerSample` consecutive pages starting after `afterId`; milliseconds per page.
async function sample(afterId: number): Promise<number> {
  const started = performance.now();
  let cursor = afterId;
  for (let p = 0; p < pagesPerSample; p++) {
    const page = await listMembers(models, accountId, { status: 'all', perPage, afterId: cursor, updatedSince: undefined });
    cursor = page.nextAfterId ?? cursor;
  }
  return (performance.now() - started) / pagesPerSample;
}

// The last pages of the directory: start far enough back that every sampled page is full.
const nearEnd = lastId - 2 * perPage * (pagesPerSample + 1);
console.log(`database ${config.database.dialect}, ${memberCount} members (and as many of another account), pages of ${perPage}, ${rounds} rounds of ${pagesPerSample} pages`);
await sample(firstId - 1); // warm-up
const totals = { start: 0, end: 0 };
for (let round = 1; round <= rounds; round++) {
  const start = await sample(firstId - 1);
  const end = await sample(nearEnd);
  totals.start += start;
  totals.end += end;
  console.log(`round ${round}: first pages ${start.toFixed(1)} ms/page, last pages ${end.toFixed(1)} ms/page, ratio ${(end / start).toFixed(2)}`);
}
console.log(`last / first page cost: ${(totals.end / totals.start).toFixed(2)} (goal ≈ 1.0)`);
await models.sequelize.close();
