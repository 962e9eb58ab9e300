// Every recipient of a send gets a page of their own (`/e/<page_id>`, rendering only their merge values) and their
// own first open. Existing rows keep `page_id` null: their send's shared id still answers (services/sends/card-page/share-page.ts).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('send_recipients', 'page_id', { type: DataTypes.STRING(32).BINARY, allowNull: true });
  await queryInterface.addColumn('send_recipients', 'opened_at', { type: DataTypes.DATE(3), allowNull: true });
  await queryInterface.addIndex('send_recipients', ['page_id'], { unique: true, name: 'send_recipients_page_id' });
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.removeIndex('send_recipients', 'send_recipients_page_id');
  await queryInterface.removeColumn('send_recipients', 'opened_at');
  await queryInterface.removeColumn('send_recipients', 'page_id');
};
