// Gift stock is taken at accept: a send-ecard gift's manual codes are held for its send (`held_send_id`) from the
// accept's transaction until its dispatch gives them to the orders (or a cancel, or the send's end, frees them).
// A code is free when it has neither an order nor a holder. The free-code index carries the holder, so the
// accept's `SELECT … FOR UPDATE SKIP LOCKED` reads only free codes (held ones are not in its range).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('gift_codes', 'held_send_id', { type: DataTypes.INTEGER, allowNull: true });
  await queryInterface.addIndex('gift_codes', ['held_send_id'], { name: 'gift_codes_held' });
  await queryInterface.addIndex('gift_codes', ['account_id', 'brand', 'denomination_cents', 'order_id', 'held_send_id'], { name: 'gift_codes_free' });
};

// The column is dropped with ALTER TABLE on both databases: Sequelize's SQLite removeColumn rebuilds the table,
// which would lose its unique indexes.
export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  await queryInterface.removeIndex('gift_codes', 'gift_codes_free');
  await queryInterface.removeIndex('gift_codes', 'gift_codes_held');
  await sequelize.query('ALTER TABLE gift_codes DROP COLUMN held_send_id');
};
