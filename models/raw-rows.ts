// A model's rows read by a written-out SELECT, as the attributes Sequelize would give: for the hot reads that skip
// its query building and instance building (about a fifth of an API process's time on a one-row read; docs/
// performance.md, "Reads (issue 35 item 4)"). Both drivers give text and numbers as the model does; what differs is
// fixed here: booleans come as 0/1, and SQLite gives dates as text. And rows written by a written-out INSERT, as the
// model's create would write them (the accept's inserts; docs/performance.md, "Accepts, round two").
import { QueryTypes, type Attributes, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';

type Kind = 'boolean' | 'date' | 'as-is';

// Types whose value both drivers already give as the model does (DECIMAL: MySQL's text, as the model keeps it).
const AS_IS = new Set(['INTEGER', 'BIGINT', 'STRING', 'CHAR', 'TEXT', 'DECIMAL', 'FLOAT', 'DOUBLE']);

// A date as SQLite stores it (`2026-11-27 10:00:00.000 +00:00`), or a Date from MySQL's driver (UTC).
export const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value).includes('+') ? String(value) : `${String(value)}+00:00`));

export interface RawReader<M extends Model> {
  /** The model's columns for a SELECT list, qualified by `alias` (and named `<prefix><column>` with a prefix). */
  columns: string;
  /** One row as the model's attributes. */
  decode(row: Record<string, unknown>): Attributes<M>;
  /** The rows of `sql` (replacements by name), decoded. */
  select(sql: string, replacements: Record<string, unknown>): Promise<Array<Attributes<M>>>;
}

/**
 * The reader of `model`'s rows; a model with a column of another type (JSON, ENUM…) is refused when it is made. A
 * `prefix` names its columns apart from another table's in a join (`e.id AS e_id`).
 */
export function rawReader<M extends Model>(model: ModelStatic<M>, alias: string, prefix = ''): RawReader<M> {
  const fields = Object.entries(model.getAttributes()).map(([name, attribute]) => {
    const key = (attribute.type as { key?: string }).key ?? '';
    const kind: Kind = key === 'BOOLEAN' ? 'boolean' : key === 'DATE' ? 'date' : 'as-is';
    if (kind === 'as-is' && !AS_IS.has(key)) throw new Error(`rawReader(${model.name}): ${name} is ${key}, which is not decoded here`);
    return { name, field: attribute.field ?? name, kind };
  });
  const decode = (row: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const { name, field, kind } of fields) {
      const value = row[prefix + field];
      out[name] = value === null || value === undefined ? null : kind === 'boolean' ? Boolean(value) : kind === 'date' ? toDate(value) : value;
    }
    return out as Attributes<M>;
  };
  return {
    columns: fields.map((f) => (prefix ? `${alias}.${f.field} AS ${prefix}${f.field}` : `${alias}.${f.field}`)).join(', '),
    decode,
    async select(sql, replacements) {
      const rows = await model.sequelize!.query<Record<string, unknown>>(sql, { type: QueryTypes.SELECT, replacements });
      return rows.map(decode);
    },
  };
}

/**
 * A Date as the model writes it into a DATE(3) column: UTC with milliseconds, and SQLite's offset. (Sequelize's
 * escape of a Date drops the milliseconds on MySQL.)
 */
export function sqlDate(sequelize: Sequelize, date: Date): string {
  const text = date.toISOString().slice(0, 23).replace('T', ' ');
  return sequelize.getDialect() === 'sqlite' ? `${text} +00:00` : text;
}

/**
 * Rows of `model` in one written-out multi-row INSERT (columns by their attribute names, all rows the same columns),
 * with no model instance, no validation and no hooks: the caller gives every value the model's create would write,
 * its defaults included. Returns the auto-increment id of a one-row insert (of a multi-row one, a driver's choice).
 */
export async function insertRows<M extends Model>(model: ModelStatic<M>, rows: ReadonlyArray<Partial<Attributes<M>>>, transaction: Transaction): Promise<number> {
  const sequelize = model.sequelize!;
  const attributes = model.getAttributes();
  const names = Object.keys(rows[0]!);
  // Sequelize's escape: NULL, booleans as the dialect writes them, quoted strings.
  const value = (v: unknown) => sequelize.escape((v instanceof Date ? sqlDate(sequelize, v) : v) as string);
  const columns = names.map((name) => attributes[name as keyof typeof attributes].field ?? name).join(', ');
  const values = rows.map((row) => `(${names.map((name) => value(row[name as keyof typeof row] ?? null)).join(', ')})`).join(', ');
  const [id] = await sequelize.query(`INSERT INTO ${model.getTableName() as string} (${columns}) VALUES ${values}`, { type: QueryTypes.INSERT, transaction });
  return Number(id);
}
