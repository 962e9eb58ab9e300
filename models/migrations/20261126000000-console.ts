// The owner's console: its sessions (only the SHA-256 of each id is kept) and the failed sign-ins the throttle
// counts (per email, in a window).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, tableOptions, timestamp } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'console_sessions',
    {
      id: idColumn(),
      id_hash: { type: DataTypes.CHAR(64), allowNull: false },
      owner_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'owners', key: 'id' }, onDelete: 'CASCADE' },
      // The live account; `mode` says whether the console works on it or on its sandbox twin.
      account_id: accountRef(),
      mode: { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'live' },
      // The secret the session's CSRF tokens are an HMAC under.
      csrf_secret: { type: DataTypes.CHAR(64), allowNull: false },
      created_at: timestamp(),
      last_seen_at: timestamp(),
      // The password was asked again at this time (step-up for sensitive actions, 10 minutes).
      step_up_at: timestamp(true),
    },
    tableOptions,
  );
  await queryInterface.addIndex('console_sessions', ['id_hash'], { unique: true, name: 'console_sessions_id' });
  await queryInterface.addIndex('console_sessions', ['owner_id']);

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
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('console_sign_in_failures');
  await queryInterface.dropTable('console_sessions');
};
