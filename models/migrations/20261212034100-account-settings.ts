// Local time, first part (issue 34): each account's settings of local time, its default zone and its quiet hours.
// An account without a row has the defaults (UTC, no quiet hours), so existing accounts need no rows.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, tableOptions, timestamps } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'account_settings',
    {
      account_id: { ...accountRef(), primaryKey: true },
      default_timezone: { type: DataTypes.STRING(64), allowNull: false, defaultValue: 'UTC' },
      // "HH:MM", both set or both null (no quiet hours); a window may cross midnight (22:00–07:00).
      quiet_start: { type: DataTypes.CHAR(5), allowNull: true },
      quiet_end: { type: DataTypes.CHAR(5), allowNull: true },
      ...timestamps(),
    },
    tableOptions,
  );
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('account_settings');
};
