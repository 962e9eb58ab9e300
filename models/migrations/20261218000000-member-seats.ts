// Seats as a counter (issue 35, item 5): one row per account holding how many of its members are active, so an
// upsert takes a seat with one conditional update instead of counting members under the account's lock. The
// plan's limit is not stored (plans change): it is a parameter of the update. Backfilled from the members.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, tableOptions } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'member_seats',
    {
      account_id: { ...accountRef(), primaryKey: true },
      used: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    tableOptions,
  );
  const q = (s: string) => queryInterface.quoteIdentifier(s);
  // One statement on both databases (a boolean is 0/1 on each).
  await queryInterface.sequelize.query(
    `INSERT INTO ${q('member_seats')} (${q('account_id')}, ${q('used')}) ` +
      `SELECT a.${q('id')}, (SELECT COUNT(*) FROM ${q('team_members')} m WHERE m.${q('account_id')} = a.${q('id')} AND m.${q('disabled')} = 0) FROM ${q('accounts')} a`,
  );
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('member_seats');
};
