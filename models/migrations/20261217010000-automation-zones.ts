// Automations at each recipient's local time (issue 34): every row of a firing says which zone's firing made it
// (null: the automation's one Schedule) and the instant it may go out (its send time, after the recipient's quiet
// hours; null on rows older than this), and each (automation, zone) keeps its own watermark.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { tableOptions, timestamp } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('automation_sends', 'zone', { type: DataTypes.STRING(64), allowNull: true });
  await queryInterface.addColumn('automation_sends', 'send_at', timestamp(true));
  await queryInterface.createTable(
    'automation_zone_watermarks',
    {
      automation_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: 'automations', key: 'id' }, onDelete: 'CASCADE' },
      zone: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
      // YYYY-MM-DD in that zone: send dates up to it are handled by that zone's firings.
      watermark: { type: DataTypes.CHAR(10), allowNull: false },
    },
    tableOptions,
  );
};

// Plain DROP COLUMNs on both databases (Sequelize's SQLite removeColumn rebuilds the table).
export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('automation_zone_watermarks');
  for (const column of ['send_at', 'zone']) {
    await queryInterface.sequelize.query(`ALTER TABLE ${queryInterface.quoteIdentifier('automation_sends')} DROP COLUMN ${queryInterface.quoteIdentifier(column)}`);
  }
};
