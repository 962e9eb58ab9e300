// Per-key request limits in fixed UTC windows (a minute and an hour), counted in the database so that every
// API process shares them: each count is an atomic conditional upsert, never a read-then-write.
// Requests of one key that arrive while its statement is in flight are counted together in the next one
// (measured: one batch in flight at a time makes the largest batches and the best throughput); a batch that
// does not fit whole falls back to one-by-one counts, so the limit is exact.
import type { Sequelize } from 'sequelize';
import type { RateLimit } from '../lib/config.ts';
import { writeStatement } from '../lib/db.ts';

const MINUTE = 60;
const HOUR = 3600;

export interface RateDecision {
  allowed: boolean;
  /** The window with the lower remaining count (the one that refused, when refused). */
  limit: number;
  remaining: number;
  /** Seconds until that window resets. */
  resetSeconds: number;
  /** Requests counted in the current hour, this one included when allowed. */
  usageThisHour: number;
}

export interface RateLimiter {
  consume(apiKeyId: number, limits: RateLimit): Promise<RateDecision>;
}

interface Windows {
  apiKeyId: number;
  hourStart: number;
  minuteStart: number;
  limits: RateLimit;
}

/** Each window's count after adding `n`, or null for a window where `n` did not fit (nothing added there). */
type AddToWindows = (w: Windows, n: number) => Promise<{ hour: number | null; minute: number | null }>;

// The limiter runs on every request, so it uses the driver through Sequelize's pool: Sequelize's query layer
// (SQL formatting, result shaping) costs more CPU than the statement itself.
interface Pool<C> {
  getConnection(options?: object): Promise<C>;
  releaseConnection(connection: C): Promise<void> | void;
}
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
  const pool = sequelize.connectionManager as unknown as Pool<SqliteDb>;
  return async ({ apiKeyId, hourStart, minuteStart, limits }, n) => {
    const params = [apiKeyId, hourStart, n, apiKeyId, minuteStart, n, limits.perMinute, limits.perHour];
    // A write like any other: it waits its turn behind this process's writers instead of failing SQLITE_BUSY.
    const rows = await writeStatement(sequelize, async () => {
      const db = await pool.getConnection();
      return new Promise<Array<{ window_seconds: number; count: number }>>((ok, fail) =>
        db.all(SQLITE_ADD, params, (err, result) => (err ? fail(err) : ok(result))),
      );
    });
    const countOf = (seconds: number) => rows.find((r) => Number(r.window_seconds) === seconds)?.count ?? null;
    return { hour: countOf(HOUR), minute: countOf(MINUTE) };
  };
}

// MySQL: one statement per window, both at once on two connections. LAST_INSERT_ID(expr) hands the new count
// back in the statement's own OK packet; affectedRows says what happened (1 inserted, 2 updated, 0 full).
const MYSQL_ADD = `INSERT INTO rate_limit_counters (api_key_id, window_seconds, window_start, count) VALUES (?, ?, ?, ?)
  ON DUPLICATE KEY UPDATE count = IF(count + ? <= ?, LAST_INSERT_ID(count + ?), count)`;

function mysqlAdd(sequelize: Sequelize): AddToWindows {
  const pool = sequelize.connectionManager as unknown as Pool<MysqlConnection>;
  const add = async (apiKeyId: number, seconds: number, start: number, n: number, limit: number) => {
    const connection = await pool.getConnection({ type: 'write' });
    try {
      const { insertId, affectedRows } = await new Promise<MysqlResult>((ok, fail) =>
        connection.query(MYSQL_ADD, [apiKeyId, seconds, start, n, n, limit, n], (err, result) => (err ? fail(err) : ok(result))),
      );
      if (affectedRows === 1) return n;
      return affectedRows === 2 ? insertId : null;
    } finally {
      await pool.releaseConnection(connection);
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

interface Pending {
  limits: RateLimit;
  resolve(decision: RateDecision): void;
  reject(err: unknown): void;
}

export function createRateLimiter(sequelize: Sequelize, now: () => Date, onError: (err: unknown) => void): RateLimiter {
  const addToWindows = sequelize.getDialect() === 'mysql' ? mysqlAdd(sequelize) : sqliteAdd(sequelize);

  // Requests that one window counted and the other refused do not count: the counted window gives them back.
  const giveBack = async (w: Windows, counted: { hour: number | null; minute: number | null }, n: number) => {
    const window = counted.hour !== null ? { seconds: HOUR, start: w.hourStart } : counted.minute !== null ? { seconds: MINUTE, start: w.minuteStart } : null;
    if (!window) return;
    await sequelize.query('UPDATE rate_limit_counters SET count = count - ? WHERE api_key_id = ? AND window_seconds = ? AND window_start = ?', {
      replacements: [n, w.apiKeyId, window.seconds, window.start],
    });
  };

  /**
   * Counts up to `n` requests: each counted one's (hour, minute) counts; for the rest, the window that refused
   * them and the hour's count at that moment.
   */
  async function countBatch(w: Windows, n: number) {
    const counted: Array<{ hour: number; minute: number }> = [];
    let size = n <= Math.min(w.limits.perHour, w.limits.perMinute) ? n : 1;
    while (counted.length < n) {
      const c = await addToWindows(w, size);
      if (c.hour !== null && c.minute !== null) {
        for (let i = 0; i < size; i++) counted.push({ hour: c.hour - size + i + 1, minute: c.minute - size + i + 1 });
        continue;
      }
      await giveBack(w, c, size);
      if (size === 1) {
        return { counted, refusedBy: c.hour === null ? ('hour' as const) : ('minute' as const), hourCount: (c.hour ?? w.limits.perHour + 1) - 1 };
      }
      size = 1; // the batch does not fit whole: count one by one until a window is full
    }
    return { counted, refusedBy: null, hourCount: counted.at(-1)?.hour ?? 0 };
  }

  // Runs when a key opens a new minute: its finished windows are no longer needed.
  const prune = (w: Windows) =>
    sequelize
      .query(
        `DELETE FROM rate_limit_counters WHERE api_key_id = ?
         AND ((window_seconds = ${MINUTE} AND window_start < ?) OR (window_seconds = ${HOUR} AND window_start < ?))`,
        { replacements: [w.apiKeyId, w.minuteStart, w.hourStart] },
      )
      .catch(onError);

  async function decide(apiKeyId: number, n: number, limits: RateLimit): Promise<RateDecision[]> {
    const t = Math.floor(now().getTime() / 1000);
    const w: Windows = { apiKeyId, hourStart: t - (t % HOUR), minuteStart: t - (t % MINUTE), limits };
    const minuteReset = w.minuteStart + MINUTE - t;
    const hourReset = w.hourStart + HOUR - t;
    const { counted, refusedBy, hourCount } = await countBatch(w, n);
    if (counted.some((c) => c.minute === 1)) void prune(w);

    const refused: RateDecision =
      refusedBy === 'hour'
        ? { allowed: false, limit: limits.perHour, remaining: 0, resetSeconds: hourReset, usageThisHour: limits.perHour }
        : { allowed: false, limit: limits.perMinute, remaining: 0, resetSeconds: minuteReset, usageThisHour: hourCount };
    return Array.from({ length: n }, (_, i): RateDecision => {
      const c = counted[i];
      if (!c) return refused;
      const minuteLeft = limits.perMinute - c.minute;
      const hourLeft = limits.perHour - c.hour;
      return minuteLeft <= hourLeft
        ? { allowed: true, limit: limits.perMinute, remaining: minuteLeft, resetSeconds: minuteReset, usageThisHour: c.hour }
        : { allowed: true, limit: limits.perHour, remaining: hourLeft, resetSeconds: hourReset, usageThisHour: c.hour };
    });
  }

  const queues = new Map<number, Pending[]>();

  async function flush(apiKeyId: number, queue: Pending[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        const decisions = await decide(apiKeyId, batch.length, batch[0]!.limits);
        batch.forEach((p, i) => p.resolve(decisions[i]!));
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    queues.delete(apiKeyId);
  }

  return {
    consume(apiKeyId, limits) {
      return new Promise<RateDecision>((resolve, reject) => {
        const queue = queues.get(apiKeyId);
        if (queue) {
          queue.push({ limits, resolve, reject });
          return;
        }
        const fresh: Pending[] = [{ limits, resolve, reject }];
        queues.set(apiKeyId, fresh);
        void flush(apiKeyId, fresh);
      });
    },
  };
}
