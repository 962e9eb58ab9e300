// An HTML part for queued service email (issue 32): "Send me a test" queues an eCard's real email, HTML and text.
// Null for the plain-text notices; cleared with the text once the message has left the queue.
import { mediumText } from '../columns.ts';
import type { Migration } from '../migrator.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('mail_queue', 'html_body', { type: mediumText(queryInterface), allowNull: true });
};

// ALTER TABLE on both databases, as the other migrations drop columns.
export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE mail_queue DROP COLUMN html_body');
};
