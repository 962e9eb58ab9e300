// Time in tests (issue 34): the offset of the service clock when TEST_CLOCK is set, one row, shared by every process
// of a test (API, worker, a drill's child), so moving it moves time for all of them at once.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { tableOptions } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'service_clock',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      offset_ms: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
    },
    tableOptions,
  );
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('service_clock');
};
