// The rate limiter's statements on `rate_limit_counters` (one row per key, window length and window start): adding
// counts to a key's two windows, each window's add one atomic conditional statement, never a read-then-write; and
// taking counts back out of them. All through Sequelize's public `query`.
import { QueryTypes, type Sequelize } from 'sequelize';
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

type CountedRow = { window_seconds: number; count: number };

// SQLite: both windows in one upsert (one commit); a row updates only within its window's limit, and RETURNING
// lists the rows that were counted. Why it starts with WITH: Sequelize's SQLite query runs a statement that starts
// with `INSERT INTO` by the driver's `run`, whatever its `type`, and `run` answers no rows
// (sequelize/lib/dialects/sqlite/query.js, getDatabaseMethod); one that starts otherwise, as QueryTypes.SELECT, goes
// to the driver's `all`, which answers the RETURNING rows, and Sequelize hands them back as they are. The WITH
// (SQLite's common table expression) carries the two limits. test/http/rate-limit-counters.test.ts fails if that
// routing changes.
const SQLITE_ADD = `WITH limits (window_seconds, most) AS (VALUES (${HOUR}, ?), (${MINUTE}, ?))
  INSERT INTO rate_limit_counters (api_key_id, window_seconds, window_start, count)
  VALUES (?, ${HOUR}, ?, ?), (?, ${MINUTE}, ?, ?)
  ON CONFLICT (api_key_id, window_seconds, window_start) DO UPDATE SET count = count + excluded.count
  WHERE count + excluded.count <= (SELECT most FROM limits WHERE limits.window_seconds = rate_limit_counters.window_seconds)
  RETURNING window_seconds, count`;

function sqliteAdd(sequelize: Sequelize): AddToWindows {
  return async ({ apiKeyId, hourStart, minuteStart, limits }, n) => {
    const replacements = [limits.perHour, limits.perMinute, apiKeyId, hourStart, n, apiKeyId, minuteStart, n];
    // A write like any other: it waits its turn behind this process's writers, and writeStatement retries it while
    // another process holds the lock. One try here (`retry.max`), so Sequelize's own busy retries do not run inside those.
    const rows = await writeStatement(sequelize, () =>
      sequelize.query<CountedRow>(SQLITE_ADD, { type: QueryTypes.SELECT, raw: true, replacements, retry: { max: 1 } }),
    );
    const countOf = (seconds: number) => rows.find((r) => Number(r.window_seconds) === seconds)?.count ?? null;
    return { hour: countOf(HOUR), minute: countOf(MINUTE) };
  };
}

// MySQL: one counting upsert per window (lib/written-statements.ts), both at once (each on a connection of the pool).
// QueryTypes.INSERT answers [insert id, rows changed] (sequelize/lib/dialects/mysql/query.js, formatResults): the
// count after the add is in them (mysqlCountAfter).
function mysqlAdd(sequelize: Sequelize): AddToWindows {
  const add = async (apiKeyId: number, seconds: number, start: number, n: number, limit: number) => {
    const { sql, params } = mysqlCountingUpsert({ table: 'rate_limit_counters', key: { api_key_id: apiKeyId, window_seconds: seconds, window_start: start }, column: 'count', n, limit });
    const [insertId, affectedRows] = await sequelize.query(sql, { type: QueryTypes.INSERT, raw: true, replacements: params });
    return mysqlCountAfter(n, { insertId: Number(insertId), affectedRows: Number(affectedRows) });
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

// Rare (a refused request's other window, a lease given back), so with Sequelize's own busy retries, outside the queue.
export function takeBack(sequelize: Sequelize): TakeBack {
  return async (apiKeyId, windows, n) => {
    if (windows.length === 0 || n === 0) return;
    const which = windows.map(() => '(window_seconds = ? AND window_start = ?)').join(' OR ');
    await sequelize.query(`UPDATE rate_limit_counters SET count = count - ? WHERE api_key_id = ? AND (${which})`, {
      replacements: [n, apiKeyId, ...windows.flatMap((w) => [w.seconds, w.start])],
    });
  };
}
