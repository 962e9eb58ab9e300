// Read receipts and thank-yous (issue 30): a send-ecard may ask to tell its sender when each recipient first
// opens the card (`sends.notify_on_open`); each recipient's page takes at most three thank-yous, counted on the
// recipient's row (`send_recipients.thanks_count`, raised by one conditional UPDATE, so two posts never both
// take the last one); the mail queue keeps a reply-to (a thank-you answers its recipient) and why a message was
// skipped instead of sent (`skip_reason`, e.g. a suppressed sender).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('sends', 'notify_on_open', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
  await queryInterface.addColumn('send_recipients', 'thanks_count', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
  await queryInterface.addColumn('mail_queue', 'reply_to', { type: DataTypes.STRING(254), allowNull: true });
  await queryInterface.addColumn('mail_queue', 'skip_reason', { type: DataTypes.STRING(40), allowNull: true });
};

// Columns are dropped with ALTER TABLE on both databases: Sequelize's SQLite removeColumn rebuilds the table, and
// dropping `sends` to rebuild it would cascade to every table that refers to it.
export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE mail_queue DROP COLUMN skip_reason');
  await sequelize.query('ALTER TABLE mail_queue DROP COLUMN reply_to');
  await sequelize.query('ALTER TABLE send_recipients DROP COLUMN thanks_count');
  await sequelize.query('ALTER TABLE sends DROP COLUMN notify_on_open');
};
