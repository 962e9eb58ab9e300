// Column shapes shared by migrations, so every table follows the same conventions.
import { DataTypes, type QueryInterface } from 'sequelize';

/** Millisecond UTC timestamps: DATETIME(3) on MySQL. */
export const timestamp = (allowNull = false) => ({ type: DataTypes.DATE(3), allowNull });

export const idColumn = () => ({ type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false });

export const timestamps = () => ({ created_at: timestamp(), updated_at: timestamp() });

/** A required link to an account; rows go with their account. */
export const accountRef = () => ({
  type: DataTypes.INTEGER,
  allowNull: false,
  references: { model: 'accounts', key: 'id' },
  onDelete: 'CASCADE',
});

/** Table options for MySQL; ignored by SQLite. */
export const tableOptions = { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } as const;

/** Up to 16 MB of text on MySQL (MEDIUMTEXT); SQLite has one TEXT type and warns about sizes. */
export const mediumText = (queryInterface: QueryInterface) =>
  queryInterface.sequelize.getDialect() === 'mysql' ? DataTypes.TEXT('medium') : DataTypes.TEXT;

/** A model's BIGINT count of cents (a gift reservation), read as a number (mysql2 returns BIGINT as a string). */
export const reservedCents = () => ({
  type: DataTypes.BIGINT,
  allowNull: false,
  defaultValue: 0,
  get(this: { getDataValue(key: string): unknown }) {
    return Number(this.getDataValue('gift_reserved_cents'));
  },
});
