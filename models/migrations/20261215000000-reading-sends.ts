// Reading sends with a key (issue 34, item 1): each recipient gains `bounced_at` (set by the bounce listener of a
// later item; a bounce leaves the recipient `sent`), and a campaign's recipients are found by their send, so a page of
// sends learns which of its recipients are directory members (masked without `directory: view`) from an index.
// MariaDB indexes a foreign key's column by itself (campaign_recipients.send_id references sends); SQLite does not.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

const INDEX = 'campaign_recipients_send';

export const up: Migration = async ({ context: { queryInterface, sequelize } }) => {
  await queryInterface.addColumn('send_recipients', 'bounced_at', { type: DataTypes.DATE(3), allowNull: true });
  if (sequelize.getDialect() === 'sqlite') await queryInterface.addIndex('campaign_recipients', ['send_id'], { name: INDEX });
};

// The column goes with ALTER TABLE on both databases (Sequelize's SQLite removeColumn rebuilds the table).
export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  if (sequelize.getDialect() === 'sqlite') await queryInterface.removeIndex('campaign_recipients', INDEX);
  await sequelize.query('ALTER TABLE send_recipients DROP COLUMN bounced_at');
};
