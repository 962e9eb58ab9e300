// One statement of a transaction sent on its own connection through the driver, skipping Sequelize's query layer
// (options, its Query object, a captured stack, result shaping): about 70 µs of CPU a statement on MariaDB, a
// sixth of a scheduled accept's API time (docs/performance.md, "Accepts, round three"). Used for the written-out
// statements of the hot writes (a send's accept, a widget send's limits and counters: "Accepts and widget sends,
// round four"); everything else keeps `sequelize.query`.
import type { Model, ModelStatic, Sequelize, Transaction } from 'sequelize';

/** What a write answered: the auto-increment id of its (first, MySQL; last, SQLite) new row, and the rows it changed. */
export interface WriteResult {
  insertId: number;
  affectedRows: number;
}

type MysqlError = Error & { errno?: number; sql?: string };
type Callback<R> = (err: MysqlError | null, result: R) => void;
type MysqlConnection = { query<R>(sql: string, params: unknown[], cb: Callback<R>): void };
type SqliteConnection = {
  run(sql: string, params: unknown[], cb: (this: { lastID: number; changes: number }, err: Error | null) => void): void;
  all(sql: string, params: unknown[], cb: Callback<Array<Record<string, unknown>>>): void;
};
type DialectQuery = new (connection: unknown, sequelize: Sequelize, options: object) => { formatError(err: Error, stack?: string): Error };

const ER_DEADLOCK = 1213;

/**
 * Runs `sql` (with `?` parameters) on the transaction's connection. A driver error becomes the error Sequelize's
 * own query would have thrown (its dialect's mapping: UniqueConstraintError, ForeignKeyConstraintError…, the `parent`
 * keeping the driver's code), so callers and the 503 mapping see no difference; and a MySQL deadlock ends the
 * transaction as Sequelize's query does (the server has already rolled it back).
 */
export function transactionStatement(transaction: Transaction, sql: string, params: unknown[] = [], model?: ModelStatic<Model>): Promise<WriteResult> {
  return onConnection(transaction, sql, model, {
    sqlite: (db) => new Promise((ok, fail) => db.run(sql, params, function (err) {
      if (err) fail(err);
      else ok({ insertId: this.lastID, affectedRows: this.changes });
    })),
    mysql: (connection) => new Promise((ok, fail) =>
      connection.query<WriteResult>(sql, params, (err, result) => (err ? fail(err) : ok({ insertId: result.insertId, affectedRows: result.affectedRows })))),
  });
}

/** The rows a statement answers (a SELECT; on SQLite also a write's RETURNING), on the transaction's connection. */
export function transactionRows(transaction: Transaction, sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  return onConnection(transaction, sql, undefined, {
    sqlite: (db) => new Promise((ok, fail) => db.all(sql, params, (err, rows) => (err ? fail(err) : ok(rows)))),
    mysql: (connection) => new Promise((ok, fail) =>
      connection.query<Array<Record<string, unknown>>>(sql, params, (err, rows) => (err ? fail(err) : ok(rows)))),
  });
}

/** The Sequelize instance a transaction belongs to (Sequelize keeps it on the transaction, untyped). */
const sequelizeOf = (transaction: Transaction): Sequelize => (transaction as unknown as { sequelize: Sequelize }).sequelize;

/** 'sqlite' or 'mysql': which database the transaction runs on. */
export const dialectOf = (transaction: Transaction): string => sequelizeOf(transaction).getDialect();

async function onConnection<T>(
  transaction: Transaction,
  sql: string,
  model: ModelStatic<Model> | undefined,
  run: { sqlite(db: SqliteConnection): Promise<T>; mysql(connection: MysqlConnection): Promise<T> },
): Promise<T> {
  const sequelize = sequelizeOf(transaction);
  const connection = (transaction as unknown as { connection: unknown }).connection;
  try {
    return await (dialectOf(transaction) === 'sqlite' ? run.sqlite(connection as SqliteConnection) : run.mysql(connection as MysqlConnection));
  } catch (err) {
    const error = err as MysqlError;
    if (error.errno === ER_DEADLOCK) {
      await transaction.rollback().catch(() => undefined);
      (transaction as unknown as { finished: string }).finished = 'rollback';
    }
    error.sql = sql;
    const Query = (sequelize as unknown as { dialect: { Query: DialectQuery } }).dialect.Query;
    throw new Query(connection, sequelize, { transaction, ...(model ? { model } : {}) }).formatError(error, new Error().stack);
  }
}
