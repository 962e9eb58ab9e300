// Keyword search shared by the list endpoints: case-insensitive substring match, `%` and `_` taken literally.
import { literal, Op, type Sequelize, type WhereOptions } from 'sequelize';

/** LIKE pattern with `!` as the escape character (a backslash means different things to SQLite and MySQL). */
export function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** Matches the keyword in any of the columns (trusted column names, never input). */
export function keywordWhere(sequelize: Sequelize, columns: readonly string[], keyword: string): WhereOptions {
  const pattern = sequelize.escape(likePattern(keyword));
  return { [Op.or]: columns.map((column) => literal(`LOWER(${column}) LIKE ${pattern} ESCAPE '!'`)) };
}
