// The baselines of the HTTP pairs (P3, P7): Koa and mysql2, no other layer, in a process of its own. A pool as
// large as the service's Sequelize pool (lib/db.ts), the text protocol as Sequelize's queries. Started by
// bench/read.ts and bench/upsert.ts with its settings in BENCH_BARE.
import Koa from 'koa';
import { createPool } from 'mysql2/promise';
import { listen } from '../api/server.ts';

export const PER_PAGE = 20;

export interface BareSettings {
  port: number;
  databaseUrl: string;
  accountId: number;
  ecardColumns: string[];
  widgetColumns: string[];
}

type Row = Record<string, unknown>;

/** The statements, written out once (placeholders `?`, the account always bound). */
function statements(s: BareSettings) {
  const ecardColumns = s.ecardColumns.join(', ');
  const accountWidgets = 'FROM widgets WHERE account_id = ? AND is_campaign = 0';
  return {
    ecard: `SELECT ${ecardColumns} FROM ecards WHERE id = ? AND account_id = ?`,
    count: `SELECT COUNT(*) AS count ${accountWidgets}`,
    page: `SELECT ${s.widgetColumns.join(', ')} ${accountWidgets} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    prices: (widgets: number) => `SELECT ${ecardColumns} FROM ecards WHERE widget_id IN (${Array(widgets).fill('?').join(', ')}) AND price IS NOT NULL ORDER BY id ASC`,
    upsert:
      'INSERT INTO team_members (account_id, email, first_name, last_name, job_position, disabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, NOW(3), NOW(3)) ' +
      'ON DUPLICATE KEY UPDATE first_name = VALUES(first_name), last_name = VALUES(last_name), job_position = VALUES(job_position), updated_at = VALUES(updated_at)',
  };
}

async function readBody(req: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Serves the baselines until SIGTERM. */
async function serve(s: BareSettings): Promise<void> {
  const pool = createPool({ uri: s.databaseUrl, connectionLimit: 10, timezone: 'Z', charset: 'utf8mb4' });
  const query = async (sql: string, params: unknown[]) => (await pool.query(sql, params))[0] as Row[];
  const sql = statements(s);
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
    } else if (ctx.path === '/members/upsert' && ctx.method === 'POST') {
      const body = JSON.parse(await readBody(ctx.req)) as { email: string; first_name?: string; last_name?: string; job_position?: string };
      const email = body.email.trim().toLowerCase();
      // The one statement of the decisions' baseline; its answer says what it did (1 inserted, 2 updated, 0 unchanged).
      const [result] = (await pool.query(sql.upsert, [s.accountId, email, body.first_name ?? null, body.last_name ?? null, body.job_position ?? null])) as unknown as [{ affectedRows: number }];
      ctx.body = { success: true, data: { email, affectedRows: result.affectedRows } };
    } else if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
    }
  });
  const server = await listen(app, s.port, '127.0.0.1');
  process.once('SIGTERM', () => void server.close().then(() => pool.end()));
}

// Imported by the pairs for its settings' shape; serving only as the bare process.
if (process.env.BENCH_BARE) await serve(JSON.parse(process.env.BENCH_BARE) as BareSettings);
