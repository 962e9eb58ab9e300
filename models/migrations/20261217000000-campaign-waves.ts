// Campaigns in waves (issue 34): a campaign sent "in the recipient's zone", or whose recipients' quiet hours delay
// some of them, goes out in waves: one row per (zone, instant) with its own quota reservation, each recipient
// pointing at its wave; the wall-clock time a "recipient" schedule was given in.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { tableOptions, timestamp } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'campaign_waves',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      campaign_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'campaigns', key: 'id' }, onDelete: 'CASCADE' },
      timezone: { type: DataTypes.STRING(64), allowNull: false },
      send_at: timestamp(),
      recipients: { type: DataTypes.INTEGER, allowNull: false },
      quota_month: { type: DataTypes.CHAR(7), allowNull: true },
      quota_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      completed_at: timestamp(true),
    },
    tableOptions,
  );
  await queryInterface.addIndex('campaign_waves', ['campaign_id', 'send_at'], { name: 'campaign_waves_campaign' });
  await queryInterface.addColumn('campaign_recipients', 'wave_id', { type: DataTypes.INTEGER, allowNull: true });
  await queryInterface.addIndex('campaign_recipients', ['campaign_id', 'wave_id', 'id'], { name: 'campaign_recipients_wave' });
  await queryInterface.addColumn('campaigns', 'scheduled_wall', { type: DataTypes.STRING(23), allowNull: true });
};

// Plain DROP COLUMN on both databases (Sequelize's SQLite removeColumn rebuilds the table, cascading into its references).
export const down: Migration = async ({ context: { queryInterface } }) => {
  const q = (s: string) => queryInterface.quoteIdentifier(s);
  await queryInterface.removeIndex('campaign_recipients', 'campaign_recipients_wave');
  await queryInterface.sequelize.query(`ALTER TABLE ${q('campaign_recipients')} DROP COLUMN ${q('wave_id')}`);
  await queryInterface.sequelize.query(`ALTER TABLE ${q('campaigns')} DROP COLUMN ${q('scheduled_wall')}`);
  await queryInterface.dropTable('campaign_waves');
};
