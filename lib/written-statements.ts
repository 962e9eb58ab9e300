// The hot writes' written-out statements, in one place and sent only through Sequelize's public `query`: a model's
// rows inserted with no instance (an accept's send, recipients, design reference, event and Idempotency-Key:
// docs/performance.md, "Accepts, round two") and the counting upsert (the quota, a widget's limits and counters, the
// limiter's MySQL windows). What they rely on in the library (its escape of values, the insert id and rows changed a
// write answers, its error classes, a deadlock ending the transaction) is checked against the models' own API on
// both databases by test/models/written-statements.test.ts, so a change of Sequelize under them fails there.
import { QueryTypes, type Attributes, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';

/** What a write answered: the auto-increment id of its (first, MySQL; last, SQLite) new row, and the rows it changed. */
export interface WriteResult {
  insertId: number;
  affectedRows: number;
}

// Replacements only when there are some: without them Sequelize leaves the text as it is, so an escaped value that
// holds a `?` or a `:name` (insertRows writes its values inline) is never taken for one.
const withParams = (params: unknown[]) => (params.length > 0 ? { replacements: params } : {});

/**
 * Runs a write (`?` parameters) in the transaction. Sequelize's own query runs it on the transaction's connection,
 * so a driver error is the error any model call would throw (UniqueConstraintError for the Idempotency-Key race,
 * ForeignKeyConstraintError, DatabaseError), and a MySQL deadlock ends the transaction as it does for them.
 */
export async function runWrite(sequelize: Sequelize, transaction: Transaction, sql: string, params: unknown[] = []): Promise<WriteResult> {
  // QueryTypes.INSERT answers [insert id, rows changed] on both dialects, for any write (an UPDATE's id is 0).
  const [insertId, affectedRows] = await sequelize.query(sql, { transaction, type: QueryTypes.INSERT, raw: true, ...withParams(params) });
  return { insertId: Number(insertId), affectedRows: Number(affectedRows) };
}

/** The rows a SELECT answers (`?` parameters), in the transaction, as the driver gives them. */
export function runSelect(sequelize: Sequelize, transaction: Transaction, sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  return sequelize.query<Record<string, unknown>>(sql, { transaction, type: QueryTypes.SELECT, raw: true, ...withParams(params) });
}

/**
 * A Date as the model writes it into a DATE(3) column: UTC with milliseconds, and SQLite's offset. (Sequelize's
 * escape of a Date drops the milliseconds on MySQL.)
 */
export function sqlDate(sequelize: Sequelize, date: Date): string {
  const text = date.toISOString().slice(0, 23).replace('T', ' ');
  return sequelize.getDialect() === 'sqlite' ? `${text} +00:00` : text;
}

// A timestamp column's attribute name (ModelOptions: `true` or absent means Sequelize's own name; `false`, none).
const timestampName = (option: string | boolean | undefined, fallback: string) => (option === false ? undefined : typeof option === 'string' ? option : fallback);

/**
 * The row as the model's create writes it: every attribute not given that has a default (a constant of the model's
 * definition) takes it, a nullable one without a default is NULL, and the timestamps take `at`. The one place a written-out insert learns a model's defaults,
 * so no caller repeats them; test/models/written-statements.test.ts checks it against create on every model.
 */
export function withDefaults<M extends Model, R extends Partial<Attributes<M>>>(model: ModelStatic<M>, row: R, at: Date): R & Partial<Attributes<M>> {
  const filled: Record<string, unknown> = { ...row };
  const { timestamps, createdAt, updatedAt } = model.options;
  const stamps = timestamps === false ? [] : [timestampName(createdAt, 'createdAt'), timestampName(updatedAt, 'updatedAt')];
  for (const [name, attribute] of Object.entries(model.getAttributes())) {
    if (filled[name] !== undefined) continue;
    if (stamps.includes(name)) filled[name] = at;
    else if (attribute.defaultValue !== undefined) {
      // Every default in models/ is a constant; a computed one (a function, NOW, a literal) would need its own rule.
      if (typeof attribute.defaultValue === 'object' || typeof attribute.defaultValue === 'function') throw new Error(`${model.name}.${name}: a computed default is not written out`);
      filled[name] = attribute.defaultValue;
    } else if (attribute.allowNull !== false && !attribute.autoIncrement) filled[name] = null;
  }
  return filled as R & Partial<Attributes<M>>;
}

/** The multi-row INSERT of insertRows: columns by the attributes' fields, each value escaped as Sequelize does. */
export function insertSql<M extends Model>(model: ModelStatic<M>, rows: ReadonlyArray<Partial<Attributes<M>>>): string {
  const sequelize = model.sequelize!;
  const attributes = model.getAttributes();
  const names = Object.keys(rows[0]!);
  // Sequelize's escape: NULL, booleans as the dialect writes them, quoted strings.
  const value = (v: unknown) => sequelize.escape((v instanceof Date ? sqlDate(sequelize, v) : v) as string);
  const columns = names.map((name) => attributes[name as keyof typeof attributes].field ?? name).join(', ');
  const values = rows.map((row) => `(${names.map((name) => value(row[name as keyof typeof row] ?? null)).join(', ')})`).join(', ');
  return `INSERT INTO ${model.getTableName() as string} (${columns}) VALUES ${values}`;
}

/**
 * Rows of `model` in one written-out multi-row INSERT (columns by their attribute names, all rows the same columns),
 * with no model instance, no validation and no hooks: the model's defaults and timestamps are filled in
 * (withDefaults) where a row does not give them. Returns the auto-increment id of a one-row insert (of a multi-row
 * one, a driver's choice).
 */
export async function insertRows<M extends Model>(model: ModelStatic<M>, rows: ReadonlyArray<Partial<Attributes<M>>>, transaction: Transaction, at = new Date()): Promise<number> {
  return (await runWrite(model.sequelize!, transaction, insertSql(model, rows.map((row) => withDefaults(model, row, at))))).insertId;
}

// The counting upsert: adding to a counter row that may not exist yet, within a limit, in one statement. The row's
// first use is made by the same upsert, which takes the row's lock at once (an UPDATE that matched nothing, then an
// INSERT, deadlocked once two writers ran it together: docs/performance.md, "Widget sends (P12), round two"). On
// MySQL the count after the add comes back in the statement's own answer, never by a read after it.

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

export type Statement = { sql: string; params: unknown[] };

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

/** SQLite's statement: the update applies only within the limit (a row changed, or none when refused). */
function sqliteCountingUpsert(counter: Counter): Statement {
  const { key, column, limit } = counter;
  const head = insertHead(counter);
  const within = limit === undefined ? '' : ` WHERE ${column} + excluded.${column} <= ?`;
  return {
    sql: `${head.sql} ON CONFLICT (${Object.keys(key).join(', ')}) DO UPDATE SET ${column} = ${column} + excluded.${column}${within}`,
    params: [...head.params, ...(limit === undefined ? [] : [limit])],
  };
}

/**
 * Adds `n` to the counter in the transaction if the count stays within the limit, in one statement (the row stays
 * locked until the commit); whether it did (nothing written when not, not even a missing row).
 */
export async function addIfWithinLimit(sequelize: Sequelize, transaction: Transaction, counter: Counter): Promise<boolean> {
  if (counter.limit !== undefined && counter.n > counter.limit) return false;
  const { sql, params } = countingUpsert(sequelize.getDialect(), counter);
  // A row made or changed: on MySQL 1 or 2, on SQLite 1; none when the limit refused (or, on MySQL, an add of 0
  // to an existing row, which changes nothing: mysqlCountAfter).
  return (await runWrite(sequelize, transaction, sql, params)).affectedRows > 0;
}

/**
 * Adds `n` to the counter as addIfWithinLimit does, and answers the count after the add (null when refused): on
 * MySQL from the statement's own answer, on SQLite by a read after it.
 */
export async function addWithinLimit(sequelize: Sequelize, transaction: Transaction, counter: Counter): Promise<number | null> {
  if (sequelize.getDialect() === 'sqlite') {
    if (!(await addIfWithinLimit(sequelize, transaction, counter))) return null;
    // Sequelize's query answers no rows for an INSERT (so no RETURNING): the count is read after, in the same
    // transaction, which on SQLite holds the database's one write lock from its BEGIN, so nothing wrote between.
    const keys = Object.keys(counter.key);
    const [row] = await runSelect(sequelize, transaction, `SELECT ${counter.column} FROM ${counter.table} WHERE ${keys.map((k) => `${k} = ?`).join(' AND ')}`, Object.values(counter.key));
    return Number(row![counter.column]);
  }
  if (counter.limit !== undefined && counter.n > counter.limit) return null;
  const { sql, params } = mysqlCountingUpsert(counter);
  return mysqlCountAfter(counter.n, await runWrite(sequelize, transaction, sql, params));
}
