// Brands: the table, a default brand for every existing account (named after it), and `ecards.ecardbrandid`
// cleared where set (no brand existed before, so every id there pointed at nothing). `down` drops the table; the
// cleared ids stay cleared.
import { DataTypes, QueryTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, tableOptions, timestamps } from '../columns.ts';

const text = (length: number) => ({ type: DataTypes.STRING(length), allowNull: true });

export const up: Migration = async ({ context: { queryInterface, sequelize } }) => {
  await queryInterface.createTable(
    'brands',
    {
      id: idColumn(),
      account_id: accountRef(),
      default_for: { type: DataTypes.INTEGER, allowNull: true },
      name: { type: DataTypes.STRING(200), allowNull: false },
      logo_url: text(2048),
      website: text(2048),
      address: text(1000),
      primary_color: text(7),
      accent_color: text(7),
      background_color: text(7),
      text_color: text(7),
      font: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'system' },
      footer_text: text(1000),
      social: { type: DataTypes.TEXT, allowNull: false },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('brands', ['account_id', 'id'], { name: 'brands_account' });
  // At most one default per account (NULLs do not collide on either database).
  await queryInterface.addIndex('brands', ['default_for'], { unique: true, name: 'brands_default_for' });
  // Cleared before the defaults exist, so an old id cannot happen to name a new brand.
  await sequelize.query('UPDATE ecards SET ecardbrandid = NULL WHERE ecardbrandid IS NOT NULL');
  const now = new Date();
  await sequelize.query(
    "INSERT INTO brands (account_id, default_for, name, font, social, created_at, updated_at) SELECT id, id, SUBSTR(name, 1, 200), 'system', '{}', :now, :now FROM accounts",
    { type: QueryTypes.INSERT, replacements: { now } },
  );
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('brands');
};
