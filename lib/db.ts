// Opens the database named by DATABASE_URL: SQLite (embedded default) or MySQL/MariaDB.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConnectionError, Sequelize, Transaction } from 'sequelize';
import sqlite3 from 'sqlite3';
import { redactDatabaseUrl, type DatabaseConfig } from './config.ts';

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** A MySQL statement given up on after DATABASE_STATEMENT_TIMEOUT_MS (mysql2's code, raw or wrapped by Sequelize). */
const STATEMENT_TIMEOUT = 'PROTOCOL_SEQUENCE_TIMEOUT';

/**
 * The database cannot be reached or does not answer: refused, reset, no connection within the pool's wait, or a
 * statement with no answer in time (a stalled server). Busy or broken ≠ unreachable: see isDatabaseBusy.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (err instanceof ConnectionError) return true;
  const e = err as { code?: unknown; parent?: { code?: unknown } } | null;
  return e?.code === STATEMENT_TIMEOUT || e?.parent?.code === STATEMENT_TIMEOUT;
}

/** SQLite's "database is locked": another writer held the lock past every wait (raw from the driver, or wrapped by Sequelize). */
export function isDatabaseBusy(err: unknown): boolean {
  const e = err as { code?: unknown; parent?: { code?: unknown }; original?: { code?: unknown } } | null;
  return e?.code === 'SQLITE_BUSY' || e?.parent?.code === 'SQLITE_BUSY' || e?.original?.code === 'SQLITE_BUSY';
}

// About 10 s of waits in JavaScript (50 ms growing 10 % a try), as Sequelize's own retries of busy statements.
const BUSY_RETRIES = 40;

/** Runs `work` again while SQLite answers SQLITE_BUSY (another process, or a statement outside the queue, holds the lock). */
export async function retryWhileBusy<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!isDatabaseBusy(err) || attempt >= BUSY_RETRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * 1.1 ** attempt));
    }
  }
}

// WAL lets readers run beside the writer; synchronous=NORMAL is safe under WAL (no fsync per commit).
// A writer waiting for the lock sleeps inside SQLite on one of libuv's four threads, so waits are kept short
// (busy_timeout 200 ms) and longer ones happen in JavaScript, as Sequelize's retries of SQLITE_BUSY (below):
// with a 5 s busy timeout, four waiting writers starved the lock holder of a thread until they timed out.
// busy_timeout comes first: the journal_mode pragma itself may wait for a lock.
const SQLITE_PRAGMAS = 'PRAGMA busy_timeout = 200; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;';
const SQLITE_RETRY = { max: 40, match: [/SQLITE_BUSY/], backoffBase: 50, backoffExponent: 1.1 };

/**
 * The sqlite3 module as Sequelize gets it (its documented `dialectModule` option): sqlite3 itself, except that a new
 * Database runs the pragmas before its opener hears it is open. Sequelize's SQLite dialect opens its connections
 * itself (sequelize/lib/dialects/sqlite/connection-manager.js: one for statements outside transactions, one per
 * transaction) with `new sqlite3.Database(file, mode, callback)`, and runs none of the connection hooks
 * (afterConnect, afterPoolAcquire are its pool's, which SQLite does not use): this is where a connection can be prepared.
 */
function preparingSqlite3(): object {
  function Database(file: string, mode: number, opened: (err: Error | null) => void): sqlite3.Database {
    const db = new sqlite3.Database(file, mode, (err) => {
      if (err) opened(err);
    });
    // Asked for at once, so the driver queues the pragmas before any statement sent on the connection (a try
    // again after SQLITE_BUSY is queued when it comes). When the file does not open, the driver never answers what
    // was queued: the opener has the open's error. When the pragmas still fail (only a file not yet in WAL waits:
    // in WAL they take no lock another connection holds), the connection is closed and the opener gets their error,
    // never an unprepared connection. Sequelize keeps the closed handle under its name: a transaction's is not
    // asked for again, and the one outside transactions is first opened by connectDatabase's check, which then
    // fails (Sequelize's retry of it finds the handle closed) and the process does not start.
    retryWhileBusy(() => new Promise<void>((ok, fail) => db.exec(SQLITE_PRAGMAS, (err) => (err ? fail(err) : ok())))).then(
      () => opened(null),
      (err: Error) => db.close(() => opened(err)),
    );
    return db;
  }
  return { ...sqlite3, Database };
}

/**
 * Prepared statements mysql2 keeps open per connection (least recently used closed first). Sequelize runs every
 * statement with bind parameters as a prepared one, and an `IN (…)` list of ids makes each text new; mysql2's
 * default of 16,000 per connection let two processes' pools fill the server's global `max_prepared_stmt_count`
 * (16,382 by default) within one benchmark run, after which every new statement failed. 10 connections × 128 per
 * process leaves room for a dozen API and worker processes on one server.
 */
const PREPARED_STATEMENTS_PER_CONNECTION = 128;

/** Builds (but does not connect) a Sequelize instance with the project's conventions: UTC, snake_case. */
export function createSequelize(db: DatabaseConfig): Sequelize {
  const define = { underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' } as const;
  if (db.dialect === 'sqlite') {
    if (db.storage !== ':memory:') mkdirSync(dirname(db.storage), { recursive: true });
    // IMMEDIATE: a transaction takes the write lock at BEGIN (retried like any busy statement). A deferred one
    // that read first could never upgrade once another writer committed, however often its write was retried.
    const sequelize = new Sequelize({
      dialect: 'sqlite',
      storage: db.storage,
      logging: false,
      define,
      retry: SQLITE_RETRY,
      transactionType: Transaction.TYPES.IMMEDIATE,
      dialectModule: preparingSqlite3(),
    });
    return sequelize;
  }
  const sequelize = new Sequelize(db.url, {
    dialect: 'mysql',
    logging: false,
    timezone: '+00:00',
    define: { ...define, charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' },
    dialectOptions: { connectTimeout: 3000, charset: 'utf8mb4', maxPreparedStatements: PREPARED_STATEMENTS_PER_CONNECTION },
    // Requests fail fast (503) rather than queue behind an unreachable database.
    pool: { max: 10, min: 0, acquire: 3000, idle: 10000 },
  });
  if (db.statementTimeoutMs) limitStatementTime(sequelize, db.statementTimeoutMs);
  return sequelize;
}

type MysqlCallback = (err: { code?: string } | null, ...results: unknown[]) => void;
type MysqlConnection = Record<'query' | 'execute', (sql: string | { sql: string }, ...rest: unknown[]) => unknown> & { destroy(): void };

/**
 * Every statement on a MySQL connection gets mysql2's timeout. The connect timeout and the pool's acquire wait cover
 * a database that refuses; a stalled one (bytes held, not refused) would otherwise hold a request on a pooled
 * connection for as long as the stall lasts. A connection whose statement timed out is destroyed: its answer may
 * still come, out of turn, and the pool must not hand it out again (the server rolls its transaction back).
 */
function limitStatementTime(sequelize: Sequelize, timeoutMs: number): void {
  sequelize.addHook('afterConnect', (raw: unknown) => {
    const connection = raw as MysqlConnection;
    for (const method of ['query', 'execute'] as const) {
      const run = connection[method].bind(connection);
      connection[method] = (sql, ...rest) => {
        const options = typeof sql === 'string' ? { sql, timeout: timeoutMs } : { timeout: timeoutMs, ...sql };
        const last = rest.length - 1;
        const callback = rest[last];
        if (typeof callback === 'function') {
          rest[last] = ((err, ...results) => {
            if (err?.code === STATEMENT_TIMEOUT) connection.destroy();
            (callback as MysqlCallback)(err, ...results);
          }) satisfies MysqlCallback;
        }
        return run(options, ...rest);
      };
    }
  });
}

/**
 * The same database without DATABASE_STATEMENT_TIMEOUT_MS, for migrations: an ALTER of a large table, or the wait for
 * another process's migration lock, may rightly take longer than any statement of a request. The same object when
 * there is no timeout to drop (SQLite, or none set).
 */
export function withoutStatementTimeout(db: DatabaseConfig): DatabaseConfig {
  return db.dialect === 'mysql' && db.statementTimeoutMs ? { dialect: 'mysql', url: db.url } : db;
}

/** Connects and checks the database answers; the error is one line without the password. */
export async function connectDatabase(db: DatabaseConfig): Promise<Sequelize> {
  const sequelize = createSequelize(db);
  try {
    await sequelize.authenticate();
  } catch (err) {
    await sequelize.close().catch(() => undefined);
    const reason = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    throw new DatabaseUnavailableError(`Cannot connect to the database ${redactDatabaseUrl(db.url)}: ${reason}`);
  }
  return sequelize;
}

// One queue per database handle: SQLite has one writer at a time, and a writer waiting in SQLite's busy handler
// holds one of libuv's four threads, so several waiting at once can starve the transaction they wait for
// (observed: a 5 s stall, the busy timeout, with six concurrent upserts). Queued here, they wait in JavaScript.
const sqliteWriters = new WeakMap<Sequelize, Promise<unknown>>();

/** On SQLite, runs a write after this process's earlier ones (the one write path: it waits its turn). */
function queuedWrite<T>(sequelize: Sequelize, write: () => Promise<T>): Promise<T> {
  const previous = sqliteWriters.get(sequelize) ?? Promise.resolve();
  const run = previous.then(write, write);
  sqliteWriters.set(sequelize, run.catch(() => undefined));
  return run;
}

/**
 * A transaction that writes: on SQLite (where every transaction is IMMEDIATE) queued behind this process's other
 * writes; on MySQL a plain one.
 */
export function writeTransaction<T>(sequelize: Sequelize, work: (transaction: Transaction) => Promise<T>): Promise<T> {
  if (sequelize.getDialect() !== 'sqlite') return sequelize.transaction(work);
  return queuedWrite(sequelize, () => sequelize.transaction(work));
}

/**
 * A write outside a transaction that waits its turn (the rate limiter's counter): on SQLite queued like a write
 * transaction and retried while another process holds the lock (`write` tries once: give its query `retry: { max: 1 }`,
 * so Sequelize's own busy retries do not run inside these); on MySQL run as it is.
 */
export function writeStatement<T>(sequelize: Sequelize, write: () => Promise<T>): Promise<T> {
  if (sequelize.getDialect() !== 'sqlite') return write();
  return queuedWrite(sequelize, () => retryWhileBusy(write));
}

/** Rows a raw UPDATE changed: mysql2 answers with a result header, SQLite with the number itself. */
export function affectedRows(result: unknown): number {
  if (typeof result === 'number') return result;
  const header = result as { affectedRows?: number; changes?: number } | undefined;
  return header?.affectedRows ?? header?.changes ?? 0;
}
