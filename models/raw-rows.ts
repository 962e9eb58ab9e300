// A model's rows read by a written-out SELECT, as the attributes Sequelize would give: for the hot reads that skip
// its query building and instance building (about a fifth of an API process's time on a one-row read; docs/
// performance.md, "Reads (issue 35 item 4)"). Both drivers give text and numbers as the model does; what differs is
// fixed here: booleans come as 0/1, and SQLite gives dates as text. (The written-out writes: lib/written-statements.ts.)
import { QueryTypes, type Attributes, type Model, type ModelStatic } from 'sequelize';

// Types whose value both drivers already give as the model does (DECIMAL: MySQL's text, as the model keeps it).
const AS_IS = new Set(['INTEGER', 'BIGINT', 'STRING', 'CHAR', 'TEXT', 'DECIMAL', 'FLOAT', 'DOUBLE']);

// A date as SQLite stores it (`2026-11-27 10:00:00.000 +00:00`), or a Date from MySQL's driver (UTC).
export const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value).includes('+') ? String(value) : `${String(value)}+00:00`));

export interface RawReader<M extends Model, K extends keyof Attributes<M> = keyof Attributes<M>> {
  /** The columns for a SELECT list, qualified by the alias (and named `<prefix><column>` with a prefix). */
  columns: string;
  /** One row as the model's attributes. */
  decode(row: Record<string, unknown>): Pick<Attributes<M>, K>;
  /** The row's, or null when its id column is null (a LEFT JOIN that found nothing). */
  decodeJoined(row: Record<string, unknown>): Pick<Attributes<M>, K> | null;
  /** The rows of `sql` (replacements by name), decoded. */
  select(sql: string, replacements: Record<string, unknown>): Promise<Array<Pick<Attributes<M>, K>>>;
}

interface ReaderOptions<K> {
  /** Names the columns apart from another table's in a join (`e.id AS e_id`). */
  prefix?: string;
  /** Only these attributes (all of the model's when absent). */
  only?: readonly K[];
}

// One reader per model and shape, made once: a hot read asks for its reader on every request.
const made = new WeakMap<ModelStatic<Model>, Map<string, RawReader<Model>>>();

/**
 * The reader of `model`'s rows under `alias`. A column with a getter in the model (JSON kept as text, a BIGINT read
 * as a number) is decoded by that getter, so a value reads as the model's instance would give it; booleans, dates
 * and JSON columns (DataTypes.JSON) are decoded here from the attribute's type; a column of another type the drivers
 * give differently (ENUM…) is refused when the reader is made, and so is a model with a column named apart from its
 * attribute (`field:`), which a row keyed by attribute name would misread.
 */
export function rawReader<M extends Model, K extends keyof Attributes<M> = keyof Attributes<M>>(model: ModelStatic<M>, alias: string, options: ReaderOptions<K> = {}): RawReader<M, K> {
  const key = `${alias}|${options.prefix ?? ''}|${options.only?.join(',') ?? '*'}`;
  const readers = made.get(model) ?? made.set(model, new Map()).get(model)!;
  const known = readers.get(key);
  if (known) return known;
  const reader = makeReader(model, alias, options);
  readers.set(key, reader);
  return reader;
}

function makeReader<M extends Model, K extends keyof Attributes<M>>(model: ModelStatic<M>, alias: string, { prefix = '', only }: ReaderOptions<K>): RawReader<M, K> {
  const attributes = model.getAttributes();
  const names = only ? only.map(String) : Object.keys(attributes);
  // A row is read by column name: a written-out SELECT names its columns so, Sequelize's `raw: true` by attribute
  // name. Only a model whose columns are named as its attributes reads the same both ways.
  const renamed = Object.entries(attributes).find(([name, attribute]) => (attribute.field ?? name) !== name);
  if (renamed) throw new Error(`rawReader(${model.name}): attribute ${renamed[0]} is column ${renamed[1].field}; a row is read by column name, so the two must agree`);
  const fields = names.map((name) => {
    const attribute = attributes[name as keyof typeof attributes];
    if (!attribute) throw new Error(`rawReader(${model.name}): no attribute ${name}`);
    return { name, read: readerOfColumn(model.name, name, attribute) };
  });
  // The column that tells a row found by a LEFT JOIN from none: its primary key, else a column that is never NULL.
  const present = fields.find((f) => attributes[f.name as keyof typeof attributes].primaryKey) ?? fields.find((f) => attributes[f.name as keyof typeof attributes].allowNull === false);
  const presentColumn = present ? prefix + present.name : undefined;
  const decode = (row: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const { name, read } of fields) out[name] = read(row[prefix + name] ?? null);
    return out as Pick<Attributes<M>, K>;
  };
  return {
    columns: fields.map((f) => (prefix ? `${alias}.${f.name} AS ${prefix}${f.name}` : `${alias}.${f.name}`)).join(', '),
    decode,
    decodeJoined(row) {
      if (!presentColumn) throw new Error(`rawReader(${model.name}): none of its columns read tells a joined row from none`);
      return row[presentColumn] === null || row[presentColumn] === undefined ? null : decode(row);
    },
    async select(sql, replacements) {
      const rows = await model.sequelize!.query<Record<string, unknown>>(sql, { type: QueryTypes.SELECT, replacements });
      return rows.map(decode);
    },
  };
}

/** How one column's stored value (null when NULL) becomes the attribute's value. */
function readerOfColumn(model: string, name: string, attribute: { type: unknown; get?: (this: never) => unknown }): (value: unknown) => unknown {
  // The model's getter, called on a stand-in for the instance: the models' getters read only their own stored value.
  if (attribute.get) return (value) => attribute.get!.call({ getDataValue: () => value } as never);
  const type = (attribute.type as { key?: string }).key ?? '';
  if (type === 'BOOLEAN') return (value) => (value === null ? null : Boolean(value));
  if (type === 'DATE') return (value) => (value === null ? null : toDate(value));
  // A JSON column is text in both databases (MariaDB's JSON is LONGTEXT), so both drivers give the text; a driver
  // that parses it already (MySQL's own JSON type) gives the value.
  if (type === 'JSON') return (value) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
  if (!AS_IS.has(type)) throw new Error(`rawReader(${model}): ${name} is ${type}, which is not decoded here`);
  return (value) => value;
}
