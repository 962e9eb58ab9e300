// Outcome events of bulk sends, gathered (issue 34, item 2): the write that finishes a bulk recipient marks it with
// the event still to announce (`announce_event`, only when an endpoint takes that type); the end of the bulk batch,
// the campaign's finish and a sweep turn marked rows into deliveries of up to 100 recipients and clear the marks.
// The index serves the sweep (marked rows are few; the rest are NULL).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

const INDEX = 'send_recipients_announce_event';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('send_recipients', 'announce_event', { type: DataTypes.STRING(32), allowNull: true });
  await queryInterface.addIndex('send_recipients', ['announce_event', 'finished_at'], { name: INDEX });
};

// The column goes with ALTER TABLE on both databases (Sequelize's SQLite removeColumn rebuilds the table).
export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  await queryInterface.removeIndex('send_recipients', INDEX);
  await sequelize.query('ALTER TABLE send_recipients DROP COLUMN announce_event');
};
