// Sessions a person can see and end (issue 49, item 5): a public id (the session's own id is a secret kept only as a
// hash), and the address and browser it was opened from. Sessions open before this migration get a public id now
// and no address (they end within 12 hours anyway).
import { randomBytes } from 'node:crypto';
import { DataTypes, QueryTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('console_sessions', 'public_id', { type: DataTypes.STRING(32), allowNull: true });
  await queryInterface.addColumn('console_sessions', 'ip', { type: DataTypes.STRING(64), allowNull: true });
  await queryInterface.addColumn('console_sessions', 'user_agent', { type: DataTypes.STRING(255), allowNull: true });
  const q = (s: string) => queryInterface.quoteIdentifier(s);
  const open = await queryInterface.sequelize.query<{ id: number }>(`SELECT ${q('id')} FROM ${q('console_sessions')}`, { type: QueryTypes.SELECT });
  for (const { id } of open) {
    await queryInterface.sequelize.query(`UPDATE ${q('console_sessions')} SET ${q('public_id')} = ? WHERE ${q('id')} = ?`, { replacements: [randomBytes(12).toString('base64url'), id] });
  }
  await queryInterface.addIndex('console_sessions', ['public_id'], { name: 'console_sessions_public_id', unique: true });
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.removeIndex('console_sessions', 'console_sessions_public_id');
  await queryInterface.removeColumn('console_sessions', 'user_agent');
  await queryInterface.removeColumn('console_sessions', 'ip');
  await queryInterface.removeColumn('console_sessions', 'public_id');
};
