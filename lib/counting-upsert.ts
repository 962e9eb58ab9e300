// Adding to a counter row that may not exist yet, within a limit, in one statement: the row's first use is made by
// the same upsert, which takes the row's lock at once (an UPDATE that matched nothing, then an INSERT, deadlocked
// once two writers ran it together: docs/performance.md, "Widget sends (P12), round two"), and the count after the
// add comes back in the statement's own answer, never by a read after it. The month's quota, a widget's IP window,
// daily cap and counters, and the rate limiter's windows on MySQL all count this way.
import type { Transaction } from 'sequelize';
import { dialectOf, transactionRows, transactionStatement, type WriteResult } from './transaction-statement.ts';

/** One counter: its table, the values of its unique key (column → value), the column counted, what to add. */
export interface Counter {
  table: string;
  key: Record<string, unknown>;
  /** Other columns a new row is made with (not part of the key). */
  alsoInserted?: Record<string, unknown>;
  column: string;
  n: number;
  /** The most the column may hold after the add; none for a counter without one. */
  limit?: number;
}

type Statement = { sql: string; params: unknown[] };

/** `INSERT INTO table (key…, also…, column) VALUES (?…)` and its values: both dialects' statements start so. */
function insertHead({ table, key, alsoInserted = {}, column, n }: Counter): Statement {
  const values = { ...key, ...alsoInserted, [column]: n };
  const columns = Object.keys(values);
  return { sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, params: Object.values(values) };
}

/** The dialect's statement, for a counter counted outside a transaction (its answer then unread). */
export const countingUpsert = (dialect: string, counter: Counter): Statement =>
  dialect === 'sqlite' ? sqliteCountingUpsert(counter) : mysqlCountingUpsert(counter);

/**
 * MySQL's statement: `LAST_INSERT_ID(expr)` hands an update's new count back as the answer's insert id, and the rows
 * changed say what happened (Sequelize connects without FOUND_ROWS): 1 inserted, 2 updated, 0 left as it was.
 */
export function mysqlCountingUpsert(counter: Counter): Statement {
  const { column, n, limit } = counter;
  const head = insertHead(counter);
  const add = limit === undefined ? `LAST_INSERT_ID(${column} + ?)` : `IF(${column} + ? <= ?, LAST_INSERT_ID(${column} + ?), ${column})`;
  return {
    sql: `${head.sql} ON DUPLICATE KEY UPDATE ${column} = ${add}`,
    params: [...head.params, ...(limit === undefined ? [n] : [n, limit, n])],
  };
}

/**
 * The count after MySQL's counting upsert of `n`, from its answer; null when the limit refused it. Adding 0 changes
 * no row either (0 rows changed, as a refusal), so for n = 0 the answer carries no count: the caller must not ask.
 */
export const mysqlCountAfter = (n: number, { insertId, affectedRows }: WriteResult): number | null =>
  affectedRows === 1 ? n : affectedRows === 2 ? insertId : null;

/** SQLite's statement: the update applies only within the limit, and RETURNING gives the count when it did. */
function sqliteCountingUpsert(counter: Counter): Statement {
  const { key, column, limit } = counter;
  const head = insertHead(counter);
  const within = limit === undefined ? '' : ` WHERE ${column} + excluded.${column} <= ?`;
  return {
    sql: `${head.sql}
      ON CONFLICT (${Object.keys(key).join(', ')}) DO UPDATE SET ${column} = ${column} + excluded.${column}${within} RETURNING ${column}`,
    params: [...head.params, ...(limit === undefined ? [] : [limit])],
  };
}

/**
 * Adds `n` to the counter in the transaction (the row stays locked until its commit); the count after the add, or
 * null when it would have passed the limit (nothing written then, not even a missing row).
 */
export async function addWithinLimit(transaction: Transaction, counter: Counter): Promise<number | null> {
  if (counter.limit !== undefined && counter.n > counter.limit) return null;
  if (dialectOf(transaction) === 'sqlite') {
    const { sql, params } = sqliteCountingUpsert(counter);
    const rows = await transactionRows(transaction, sql, params);
    return rows.length > 0 ? Number(rows[0]![counter.column]) : null;
  }
  const { sql, params } = mysqlCountingUpsert(counter);
  return mysqlCountAfter(counter.n, await transactionStatement(transaction, sql, params));
}
