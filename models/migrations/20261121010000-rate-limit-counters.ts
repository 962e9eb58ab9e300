// Request counters of API keys per fixed window (UTC minute and hour), shared by every API process.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { tableOptions } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'rate_limit_counters',
    {
      api_key_id: {
        type: DataTypes.INTEGER,
        allowNull: false,
        primaryKey: true,
        references: { model: 'api_keys', key: 'id' },
        onDelete: 'CASCADE',
      },
      // Window length in seconds (60 or 3600) and its start in unix seconds, aligned to UTC.
      window_seconds: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      window_start: { type: DataTypes.BIGINT, allowNull: false, primaryKey: true },
      count: { type: DataTypes.INTEGER, allowNull: false },
    },
    tableOptions,
  );
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('rate_limit_counters');
};
