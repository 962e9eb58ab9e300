// Bounces (issue 34, item 3): each recipient's VERP token (the envelope sender bounces+<token>@BOUNCE_DOMAIN; null
// when none was configured at acceptance) and the parsed status of the bounce or complaint that came back (never
// the raw report); a suppression says why it was made (null: by the account, from the console or `cardsvc`).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

const TOKEN_INDEX = 'send_recipients_bounce_token';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('send_recipients', 'bounce_token', { type: DataTypes.CHAR(32).BINARY, allowNull: true });
  await queryInterface.addColumn('send_recipients', 'bounce_kind', { type: DataTypes.STRING(10), allowNull: true });
  await queryInterface.addColumn('send_recipients', 'bounce_status', { type: DataTypes.STRING(16), allowNull: true });
  await queryInterface.addColumn('send_recipients', 'bounce_diagnostic', { type: DataTypes.STRING(300), allowNull: true });
  await queryInterface.addIndex('send_recipients', ['bounce_token'], { unique: true, name: TOKEN_INDEX });
  await queryInterface.addColumn('suppressions', 'reason', { type: DataTypes.STRING(300), allowNull: true });
};

// Columns go with ALTER TABLE on both databases (Sequelize's SQLite removeColumn rebuilds the table).
export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  await queryInterface.removeIndex('send_recipients', TOKEN_INDEX);
  for (const column of ['bounce_token', 'bounce_kind', 'bounce_status', 'bounce_diagnostic']) await sequelize.query(`ALTER TABLE send_recipients DROP COLUMN ${column}`);
  await sequelize.query('ALTER TABLE suppressions DROP COLUMN reason');
};
