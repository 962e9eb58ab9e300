// The rate limiter's statements on `rate_limit_counters` (one row per key, window length and window start): adding
// counts to a key's two windows, each window's add one atomic conditional statement, never a read-then-write; and
// taking counts back out of them.
import type { Sequelize } from 'sequelize';
import type { RateLimit } from '../lib/config.ts';
import { writeStatement } from '../lib/db.ts';
import { mysqlCountAfter, mysqlCountingUpsert } from '../lib/written-statements.ts';

export const MINUTE = 60;
export const HOUR = 3600;

/** One key's current windows (their starts in seconds since the epoch) under its plan's limits. */
export interface Windows {
  apiKeyId: number;
  hourStart: number;
  minuteStart: number;
  limits: RateLimit;
}

/** Each window's count after adding `n`, or null for a window where `n` did not fit (nothing added there). */
export type AddToWindows = (w: Windows, n: number) => Promise<{ hour: number | null; minute: number | null }>;

/** Takes `n` counts back out of the named windows of a key (counts it added and will not use). */
export type TakeBack = (apiKeyId: number, windows: Array<{ seconds: number; start: number }>, n: number) => Promise<void>;

// Adding runs on every lease, so it uses the driver on a connection of Sequelize's pool (its public
// connectionManager): Sequelize's query layer (SQL formatting, result shaping) costs more CPU than the statement itself.
type SqliteDb = {
  all(sql: string, params: unknown[], cb: (err: Error | null, rows: Array<{ window_seconds: number; count: number }>) => void): void;
};
type MysqlResult = { insertId: number; affectedRows: number };
type MysqlConnection = { query(sql: string, params: unknown[], cb: (err: Error | null, result: MysqlResult) => void): void };

// SQLite: both windows in one upsert (one commit); a row updates only within its limit, and RETURNING lists
// the rows that were counted.
const SQLITE_ADD = `INSERT INTO rate_limit_counters (api_key_id, window_seconds, window_start, count)
  VALUES (?, ${HOUR}, ?, ?), (?, ${MINUTE}, ?, ?)
  ON CONFLICT (api_key_id, window_seconds, window_start) DO UPDATE SET count = count + excluded.count
  WHERE count + excluded.count <= (CASE rate_limit_counters.window_seconds WHEN ${MINUTE} THEN ? ELSE ? END)
  RETURNING window_seconds, count`;

function sqliteAdd(sequelize: Sequelize): AddToWindows {
  return async ({ apiKeyId, hourStart, minuteStart, limits }, n) => {
    const params = [apiKeyId, hourStart, n, apiKeyId, minuteStart, n, limits.perMinute, limits.perHour];
    // A write like any other: it waits its turn behind this process's writers instead of failing SQLITE_BUSY.
    const rows = await writeStatement(sequelize, async () => {
      // SQLite's one connection outside transactions (there is no pool to give it back to).
      const db = (await sequelize.connectionManager.getConnection({ type: 'write' })) as SqliteDb;
      return new Promise<Array<{ window_seconds: number; count: number }>>((ok, fail) =>
        db.all(SQLITE_ADD, params, (err, result) => (err ? fail(err) : ok(result))),
      );
    });
    const countOf = (seconds: number) => rows.find((r) => Number(r.window_seconds) === seconds)?.count ?? null;
    return { hour: countOf(HOUR), minute: countOf(MINUTE) };
  };
}

// MySQL: one counting upsert per window (lib/written-statements.ts), both at once on two connections.
function mysqlAdd(sequelize: Sequelize): AddToWindows {
  const pool = sequelize.connectionManager;
  const add = async (apiKeyId: number, seconds: number, start: number, n: number, limit: number) => {
    const { sql, params } = mysqlCountingUpsert({ table: 'rate_limit_counters', key: { api_key_id: apiKeyId, window_seconds: seconds, window_start: start }, column: 'count', n, limit });
    const connection = (await pool.getConnection({ type: 'write' })) as MysqlConnection;
    try {
      return mysqlCountAfter(n, await new Promise<MysqlResult>((ok, fail) => connection.query(sql, params, (err, result) => (err ? fail(err) : ok(result)))));
    } finally {
      // Typed as returning nothing, Sequelize's release is async: awaited, so a failure reaches the caller.
      await Promise.resolve(pool.releaseConnection(connection));
    }
  };
  return async ({ apiKeyId, hourStart, minuteStart, limits }, n) => {
    const [hour, minute] = await Promise.all([
      add(apiKeyId, HOUR, hourStart, n, limits.perHour),
      add(apiKeyId, MINUTE, minuteStart, n, limits.perMinute),
    ]);
    return { hour, minute };
  };
}

export function addToWindows(sequelize: Sequelize): AddToWindows {
  return sequelize.getDialect() === 'mysql' ? mysqlAdd(sequelize) : sqliteAdd(sequelize);
}

// Rare (a refused request's other window, a lease given back), so through Sequelize's query layer and its busy retries.
export function takeBack(sequelize: Sequelize): TakeBack {
  return async (apiKeyId, windows, n) => {
    if (windows.length === 0 || n === 0) return;
    const which = windows.map(() => '(window_seconds = ? AND window_start = ?)').join(' OR ');
    await sequelize.query(`UPDATE rate_limit_counters SET count = count - ? WHERE api_key_id = ? AND (${which})`, {
      replacements: [n, apiKeyId, ...windows.flatMap((w) => [w.seconds, w.start])],
    });
  };
}
