// Local time, first part (issue 34): a member's own time zone, an IANA name (canonical), null for none.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('team_members', 'timezone', { type: DataTypes.STRING(64), allowNull: true });
};

// A plain DROP COLUMN on both databases: Sequelize's SQLite removeColumn rebuilds the table, and dropping the old
// team_members table would cascade (foreign keys are on) into the rows that refer to it.
export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.sequelize.query(`ALTER TABLE ${queryInterface.quoteIdentifier('team_members')} DROP COLUMN ${queryInterface.quoteIdentifier('timezone')}`);
};
