// Per-key request limits in fixed UTC windows (a minute and an hour), counted in the database so that
// every API process shares them: one atomic conditional upsert per window, never a read-then-write.
import { QueryTypes, type Sequelize } from 'sequelize';
import type { RateLimit } from '../lib/config.ts';

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

type Increment = (apiKeyId: number, windowSeconds: number, windowStart: number, limit: number) => Promise<number | null>;

// SQLite: an upsert whose update only happens under the limit; RETURNING gives the new count, or no row at the
// limit. The leading comment keeps Sequelize from treating it as a plain INSERT, which would drop the rows.
function sqliteIncrement(sequelize: Sequelize): Increment {
  return async (apiKeyId, windowSeconds, windowStart, limit) => {
    const rows = await sequelize.query<{ count: number }>(
      `/* rate limit */ INSERT INTO rate_limit_counters (api_key_id, window_seconds, window_start, count) VALUES (?, ?, ?, 1)
       ON CONFLICT (api_key_id, window_seconds, window_start) DO UPDATE SET count = count + 1 WHERE count < ?
       RETURNING count`,
      { replacements: [apiKeyId, windowSeconds, windowStart, limit], type: QueryTypes.SELECT },
    );
    return rows[0]?.count ?? null;
  };
}

// MySQL: LAST_INSERT_ID(expr) hands the new count back in the same statement's OK packet; affectedRows says
// what happened (1 inserted, 2 updated, 0 left unchanged because the window was full).
function mysqlIncrement(sequelize: Sequelize): Increment {
  return async (apiKeyId, windowSeconds, windowStart, limit) => {
    const [insertId, affectedRows] = (await sequelize.query(
      `INSERT INTO rate_limit_counters (api_key_id, window_seconds, window_start, count) VALUES (?, ?, ?, 1)
       ON DUPLICATE KEY UPDATE count = IF(count < ?, LAST_INSERT_ID(count + 1), count)`,
      { replacements: [apiKeyId, windowSeconds, windowStart, limit], type: QueryTypes.RAW },
    )) as unknown as [number, number];
    if (affectedRows === 1) return 1;
    return affectedRows === 2 ? insertId : null;
  };
}

export function createRateLimiter(sequelize: Sequelize, now: () => Date, onError: (err: unknown) => void): RateLimiter {
  const increment = sequelize.getDialect() === 'mysql' ? mysqlIncrement(sequelize) : sqliteIncrement(sequelize);

  // Runs when a key opens a new minute: its finished windows are no longer needed.
  const prune = (apiKeyId: number, minuteStart: number, hourStart: number) =>
    sequelize
      .query(
        `DELETE FROM rate_limit_counters WHERE api_key_id = ?
         AND ((window_seconds = ${MINUTE} AND window_start < ?) OR (window_seconds = ${HOUR} AND window_start < ?))`,
        { replacements: [apiKeyId, minuteStart, hourStart] },
      )
      .catch(onError);

  return {
    async consume(apiKeyId, limits) {
      const t = Math.floor(now().getTime() / 1000);
      const minuteStart = t - (t % MINUTE);
      const hourStart = t - (t % HOUR);
      const minuteReset = minuteStart + MINUTE - t;
      const hourReset = hourStart + HOUR - t;

      const hourCount = await increment(apiKeyId, HOUR, hourStart, limits.perHour);
      if (hourCount === null) {
        return { allowed: false, limit: limits.perHour, remaining: 0, resetSeconds: hourReset, usageThisHour: limits.perHour };
      }
      const minuteCount = await increment(apiKeyId, MINUTE, minuteStart, limits.perMinute);
      if (minuteCount === null) {
        // A refused request does not count: give back the hour's increment.
        await sequelize.query(
          `UPDATE rate_limit_counters SET count = count - 1 WHERE api_key_id = ? AND window_seconds = ${HOUR} AND window_start = ?`,
          { replacements: [apiKeyId, hourStart] },
        );
        return { allowed: false, limit: limits.perMinute, remaining: 0, resetSeconds: minuteReset, usageThisHour: hourCount - 1 };
      }
      if (minuteCount === 1) void prune(apiKeyId, minuteStart, hourStart);
      const minuteLeft = limits.perMinute - minuteCount;
      const hourLeft = limits.perHour - hourCount;
      return minuteLeft <= hourLeft
        ? { allowed: true, limit: limits.perMinute, remaining: minuteLeft, resetSeconds: minuteReset, usageThisHour: hourCount }
        : { allowed: true, limit: limits.perHour, remaining: hourLeft, resetSeconds: hourReset, usageThisHour: hourCount };
    },
  };
}
