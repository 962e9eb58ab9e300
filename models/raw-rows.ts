// A model's rows read by a written-out SELECT, as the attributes Sequelize would give: for the hot reads that skip
// its query building and instance building (about a fifth of an API process's time on a one-row read; docs/
// performance.md, "Reads (issue 35 item 4)"). Both drivers give text and numbers as the model does; what differs is
// fixed here: booleans come as 0/1, and SQLite gives dates as text.
import { QueryTypes, type Attributes, type Model, type ModelStatic } from 'sequelize';

type Kind = 'boolean' | 'date' | 'as-is';

// Types whose value both drivers already give as the model does (DECIMAL: MySQL's text, as the model keeps it).
const AS_IS = new Set(['INTEGER', 'BIGINT', 'STRING', 'CHAR', 'TEXT', 'DECIMAL', 'FLOAT', 'DOUBLE']);

// A date as SQLite stores it (`2026-11-27 10:00:00.000 +00:00`), or a Date from MySQL's driver (UTC).
const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value).includes('+') ? String(value) : `${String(value)}+00:00`));

export interface RawReader<M extends Model> {
  /** The model's columns for a SELECT list, qualified by `alias`. */
  columns: string;
  /** One row as the model's attributes. */
  decode(row: Record<string, unknown>): Attributes<M>;
  /** The rows of `sql` (replacements by name), decoded. */
  select(sql: string, replacements: Record<string, unknown>): Promise<Array<Attributes<M>>>;
}

/** The reader of `model`'s rows; a model with a column of another type (JSON, ENUM…) is refused when it is made. */
export function rawReader<M extends Model>(model: ModelStatic<M>, alias: string): RawReader<M> {
  const fields = Object.entries(model.getAttributes()).map(([name, attribute]) => {
    const key = (attribute.type as { key?: string }).key ?? '';
    const kind: Kind = key === 'BOOLEAN' ? 'boolean' : key === 'DATE' ? 'date' : 'as-is';
    if (kind === 'as-is' && !AS_IS.has(key)) throw new Error(`rawReader(${model.name}): ${name} is ${key}, which is not decoded here`);
    return { name, field: attribute.field ?? name, kind };
  });
  const decode = (row: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const { name, field, kind } of fields) {
      const value = row[field];
      out[name] = value === null || value === undefined ? null : kind === 'boolean' ? Boolean(value) : kind === 'date' ? toDate(value) : value;
    }
    return out as Attributes<M>;
  };
  return {
    columns: fields.map((f) => `${alias}.${f.field}`).join(', '),
    decode,
    async select(sql, replacements) {
      const rows = await model.sequelize!.query<Record<string, unknown>>(sql, { type: QueryTypes.SELECT, replacements });
      return rows.map(decode);
    },
  };
}
