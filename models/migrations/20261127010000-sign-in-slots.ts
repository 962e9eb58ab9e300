// The sign-in throttle counts in slots taken before a password is checked (one conditional update each), per
// (client IP, email) and per email, instead of failures written after the check, which parallel guesses outran.
import { DataTypes } from 'sequelize';
import { idColumn, tableOptions, timestamp } from '../columns.ts';
import type { Migration } from '../migrator.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'console_sign_in_slots',
    {
      slot_key: { type: DataTypes.STRING(320).BINARY, primaryKey: true, allowNull: false },
      attempts: { type: DataTypes.INTEGER, allowNull: false },
      window_start: timestamp(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('console_sign_in_slots', ['window_start'], { name: 'console_sign_in_slots_window' });
  await queryInterface.dropTable('console_sign_in_failures');
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'console_sign_in_failures',
    {
      id: idColumn(),
      email: { type: DataTypes.STRING(254), allowNull: false },
      failed_at: timestamp(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('console_sign_in_failures', ['email', 'failed_at']);
  await queryInterface.dropTable('console_sign_in_slots');
};
