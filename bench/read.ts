// `npm run bench` (reads): requests per second of two authenticated reads with a full-access key, each as a ratio
// to a bare handler measured in the same run (rounds alternated: service, bare, service, bare…), the median ratio
// with its min and max:
// - `GET /v2/api/ecard/findOne/id/{id}` vs a bare Koa handler running the same `SELECT <the eCard's columns> FROM
//   ecards WHERE id = ? AND account_id = ?` and answering the row as JSON (target ≥ 0.5);
// - `GET /v2/api/widget/search` (a page of 20) vs a bare Koa handler running the statements the service runs for
//   that page (the count, the page, the priced eCards of its widgets) and answering them as JSON (target ≥ 0.4).
// The service is the API alone as production runs it (`bin/api.ts`, its own process, log level info, its log in a
// file), limits raised by configuration (RATE_LIMITS); the bare handlers run in a process of their own (this file
// with the argument `bare`) on mysql2 (MariaDB/MySQL: a pool as large as the service's, the text protocol as
// Sequelize's) or on the sqlite3 driver (SQLite: one read-only connection). Both answer the same rows (checked
// before measuring); the clients run in this process.
// Settings: BENCH_SECONDS (per round, default 5), BENCH_ROUNDS (pairs of rounds, default 3), BENCH_WARMUP_SECONDS
// (of each side before the rounds, default 5; 0 skips it), BENCH_CONCURRENCY (default 32), BENCH_READ_WIDGETS
// (widgets of the account read and of another account, three eCards each; default 60, at least 20), DATABASE_URL
// (default: a fresh SQLite file). BENCH_CPU_PROF=<dir>: instead, a warm-up and one measured round of the service's
// findOne only, the API process running with `--cpu-prof` into <dir> (the profile is written when it stops).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { listen } from '../api/server.ts';
import { openDatabase } from '../app/runtime.ts';
import { loadConfig } from '../lib/config.ts';
import { createAccount } from '../services/accounts.ts';
import { newVanityId } from '../services/widgets.ts';
import { alternatedRatios, freePort, requestRate, startApiProcess, startNodeProcess, type NodeProcess } from './harness.ts';

const PER_PAGE = 20;

/** What the bare process needs: where the database is, the account, and the statements it runs. */
interface BareSettings {
  port: number;
  database: { dialect: 'mysql'; url: string } | { dialect: 'sqlite'; storage: string };
  accountId: number;
  ecardColumns: string[];
  widgetColumns: string[];
}

/** The bare statements, written out once for both databases (placeholders `?`, the account always bound). */
function bareStatements(s: BareSettings) {
  const ecardColumns = s.ecardColumns.join(', ');
  const accountWidgets = 'FROM widgets WHERE account_id = ? AND is_campaign = 0';
  return {
    ecard: `SELECT ${ecardColumns} FROM ecards WHERE id = ? AND account_id = ?`,
    count: `SELECT COUNT(*) AS count ${accountWidgets}`,
    page: `SELECT ${s.widgetColumns.join(', ')} ${accountWidgets} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    prices: (widgets: number) => `SELECT ${ecardColumns} FROM ecards WHERE widget_id IN (${Array(widgets).fill('?').join(', ')}) AND price IS NOT NULL ORDER BY id ASC`,
  };
}

type Row = Record<string, unknown>;
type Query = (sql: string, params: unknown[]) => Promise<Row[]>;

/** The bare side: Koa, one driver, no other layer. */
async function serveBare(s: BareSettings): Promise<void> {
  let query: Query;
  let close: () => Promise<void>;
  if (s.database.dialect === 'mysql') {
    const { createPool } = await import('mysql2/promise');
    // As many connections as the service's Sequelize pool (lib/db.ts), text protocol as Sequelize's queries.
    const pool = createPool({ uri: s.database.url, connectionLimit: 10, timezone: 'Z', charset: 'utf8mb4' });
    query = async (sql, params) => (await pool.query(sql, params))[0] as Row[];
    close = () => pool.end();
  } else {
    const { default: sqlite3 } = await import('sqlite3');
    const db = new sqlite3.Database(s.database.storage, sqlite3.OPEN_READONLY);
    query = (sql, params) => new Promise((ok, fail) => db.all<Row>(sql, params, (err, rows) => (err ? fail(err) : ok(rows))));
    close = () => new Promise((ok) => db.close(() => ok()));
  }
  const sql = bareStatements(s);
  const app = new Koa();
  app.use(async (ctx) => {
    const ecard = /^\/ecard\/(\d+)$/.exec(ctx.path);
    if (ecard) {
      const [row] = await query(sql.ecard, [Number(ecard[1]), s.accountId]);
      if (!row) ctx.throw(404);
      ctx.body = row;
    } else if (ctx.path === '/widgets') {
      const page = Number(ctx.query.page ?? 1);
      const [[count], widgets] = await Promise.all([query(sql.count, [s.accountId]), query(sql.page, [s.accountId, PER_PAGE, (page - 1) * PER_PAGE])]);
      const ids = widgets.map((w) => w.id as number);
      const priced = ids.length ? await query(sql.prices(ids.length), ids) : [];
      const prices = new Map<number, Record<string, number>>(ids.map((id) => [id, {}]));
      for (const e of priced) prices.get(e.widget_id as number)![String(e.id)] = Number(e.price);
      ctx.body = { data: widgets.map((w) => ({ ...w, ecardPrices: prices.get(w.id as number) })), meta: { page, perPage: PER_PAGE, total: Number(count!.count) } };
    } else if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
    }
  });
  const server = await listen(app, s.port, '127.0.0.1');
  process.once('SIGTERM', () => void server.close().then(close));
}

if (process.argv[2] === 'bare') {
  await serveBare(JSON.parse(process.env.BENCH_BARE!) as BareSettings);
} else {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
  const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
  const widgetCount = Math.max(PER_PAGE, Number(process.env.BENCH_READ_WIDGETS ?? 60));
  const profileDir = process.env.BENCH_CPU_PROF;

  const dataDir = mkdtempSync(join(tmpdir(), 'cardsvc-bench-'));
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(dataDir, 'bench.sqlite')}`;
  // Limits far above what the bench sends: every request is counted, none refused.
  const rateLimits = 'free=1000000000/1000000000,pro=1000000000/1000000000,enterprise=1000000000/1000000000';
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const models = await openDatabase(config, 'migrate');

  // The account read and another, each with BENCH_READ_WIDGETS widgets of three eCards, one of them priced.
  const seedStarted = performance.now();
  const stamp = Date.now();
  const { accountId, liveKey } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-read-${stamp}@example.com`, plan: 'enterprise' });
  const { accountId: neighbourId } = await createAccount(models, { name: 'Neighbour', ownerEmail: `bench-read-n-${stamp}@example.com`, plan: 'enterprise' });
  for (const account of [accountId, neighbourId]) {
    await models.Widget.bulkCreate(Array.from({ length: widgetCount }, (_, i) => ({ account_id: account, vanity_id: newVanityId(), name: `Widget ${i}`, wconfig: { theme: 'light', columns: 3 } })));
    const widgets = await models.Widget.findAll({ where: { account_id: account }, attributes: ['id'], order: [['id', 'ASC']] });
    await models.Ecard.bulkCreate(
      widgets.flatMap((widget, i) =>
        [0, 1, 2].map((j) => ({
          account_id: account, widget_id: widget.id, vanity_id: newVanityId(), name: `eCard ${i}.${j}`, email_subject: 'Greetings from {{sender_name}}', header: 'Hello',
          details: '<p>Dear {{recipient_name}}, greetings from {{sender_name}}.</p>', ecard_link: null, url_redirect_after_send: null, ecardbrandid: null, ecard_mode: null,
          envelope_bg_image_url: null, envelope_audio_url: null, envelope_video_url: null, envelope_color_settings: null, self_hosted_url: null, price: j === 0 ? '5.00' : null,
        })),
      ),
    );
  }
  const ecard = (await models.Ecard.findOne({ where: { account_id: accountId }, order: [['id', 'DESC']] }))!;
  const columns = (attributes: Record<string, { field?: string | undefined }>) => Object.values(attributes).map((a) => a.field!);
  const bare: BareSettings = {
    port: await freePort(),
    database: config.database.dialect === 'sqlite' ? { dialect: 'sqlite', storage: config.database.storage } : { dialect: 'mysql', url: databaseUrl },
    accountId,
    ecardColumns: columns(models.Ecard.getAttributes()),
    widgetColumns: columns(models.Widget.getAttributes()),
  };
  await models.sequelize.close();
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const logFile = join(dataDir, 'api.log');
  const api = await startApiProcess(
    { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, RATE_LIMITS: rateLimits },
    { logFile, nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [] },
  );
  const auth = { Authorization: `Bearer ${liveKey}` };
  const service = {
    findOne: { url: `${api.url}/v2/api/ecard/findOne/id/${ecard.id}`, headers: auth },
    search: { url: `${api.url}/v2/api/widget/search?page=1&perPage=${PER_PAGE}`, headers: auth },
  };
  const header = `database ${config.database.dialect}, ${widgetCount} widgets (made in ${seedSeconds.toFixed(1)} s), ${concurrency} concurrent clients, API log in ${logFile}`;

  type Request = { url: string; headers?: Record<string, string> };
  const rate = (request: Request) => (roundSeconds: number) => requestRate(request, roundSeconds, concurrency);

  // One round of the service's findOne under the profiler.
  const profiledRound = async () => {
    console.log(`${header}; profiling one round of ${seconds} s of the service's findOne after ${warmupSeconds} s of warm-up`);
    if (warmupSeconds > 0) await rate(service.findOne)(warmupSeconds);
    console.log(`findOne (profiled): ${(await rate(service.findOne)(seconds)).toFixed(0)} req/s`);
  };

  // Each read against its bare handler, after checking that both answer the same rows.
  const pairedRounds = async (baseline: NodeProcess) => {
    const bareUrls = { findOne: { url: `${baseline.url}/ecard/${ecard.id}` }, search: { url: `${baseline.url}/widgets?page=1` } };
    const json = async (request: Request) => (await (await fetch(request.url, { headers: request.headers ?? {} })).json()) as { data: unknown };
    const one = [(await json(service.findOne)).data, await json(bareUrls.findOne)] as Array<{ id: number }>;
    const pages = [(await json(service.search)).data, (await json(bareUrls.search)).data] as Array<Array<{ id: number }>>;
    if (one[0]!.id !== ecard.id || one[1]!.id !== ecard.id) throw new Error(`findOne: the service answered eCard ${one[0]!.id}, the bare handler ${one[1]!.id}, for ${ecard.id}`);
    if (pages[0]!.length !== PER_PAGE || pages[0]!.map((w) => w.id).join() !== pages[1]!.map((w) => w.id).join()) throw new Error('widget search: the service and the bare handler answered different pages');

    console.log(`${header}, ${rounds} pairs of rounds of ${seconds} s each after ${warmupSeconds} s of warm-up of each side`);
    const pairs = { rounds, seconds, warmupSeconds };
    await alternatedRatios('findOne', { name: 'service', rate: rate(service.findOne) }, { name: 'bare Koa', rate: rate(bareUrls.findOne) }, { ...pairs, target: '≥ 0.5' });
    await alternatedRatios('widget search', { name: 'service', rate: rate(service.search) }, { name: 'bare Koa', rate: rate(bareUrls.search) }, { ...pairs, target: '≥ 0.4' });
  };

  try {
    if (profileDir) {
      await profiledRound();
    } else {
      const baseline = await startNodeProcess({
        script: fileURLToPath(import.meta.url), args: ['bare'], env: { PATH: process.env.PATH, HOME: process.env.HOME, BENCH_BARE: JSON.stringify(bare) },
        port: bare.port, readyPath: '/healthz', logFile: join(dataDir, 'bare.log'),
      });
      try {
        await pairedRounds(baseline);
      } finally {
        await baseline.stop();
      }
    }
  } finally {
    await api.stop();
  }
  if (profileDir) console.log(`CPU profile of the API process in ${resolve(profileDir)}`);
}
