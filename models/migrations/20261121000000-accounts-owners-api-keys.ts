// Accounts (each live account linked to its sandbox), their owners, and hashed API keys.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, tableOptions, timestamp, timestamps } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'accounts',
    {
      id: idColumn(),
      name: { type: DataTypes.STRING(200), allowNull: false },
      plan: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'free' },
      mode: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'live' },
      // Set on a sandbox account: the live account it mirrors (one sandbox per live account).
      live_account_id: {
        type: DataTypes.INTEGER,
        allowNull: true,
        unique: true,
        references: { model: 'accounts', key: 'id' },
        onDelete: 'CASCADE',
      },
      ...timestamps(),
    },
    tableOptions,
  );

  await queryInterface.createTable(
    'owners',
    {
      id: idColumn(),
      account_id: accountRef(),
      email: { type: DataTypes.STRING(254), allowNull: false, unique: true },
      // scrypt$N$r$p$salt$hash; null until the owner sets a password.
      password_hash: { type: DataTypes.STRING(255), allowNull: true },
      ...timestamps(),
    },
    tableOptions,
  );

  await queryInterface.createTable(
    'api_keys',
    {
      id: idColumn(),
      account_id: accountRef(),
      name: { type: DataTypes.STRING(100), allowNull: false, defaultValue: '' },
      // SHA-256 hex of the whole key; BINARY so lookups compare byte for byte.
      key_hash: { type: DataTypes.CHAR(64).BINARY, allowNull: false, unique: true },
      last4: { type: DataTypes.CHAR(4), allowNull: false },
      full_access: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      permissions: { type: DataTypes.TEXT, allowNull: false },
      last_used_at: timestamp(true),
      revoked_at: timestamp(true),
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('api_keys', ['account_id']);
  await queryInterface.addIndex('owners', ['account_id']);
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('api_keys');
  await queryInterface.dropTable('owners');
  await queryInterface.dropTable('accounts');
};
