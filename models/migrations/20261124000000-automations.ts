// Automations: the automation (its configuration as JSON text, its watermark: the last local date whose firing
// was handled), the eCards it refers to (selected, per milestone, per notification type: one table, so the usage
// check and an eCard's deletion see every reference), and its exactly-once rows (one per automation, member and
// occurrence: a card to a celebrant, or a digest to a notified person).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, tableOptions, timestamps } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'automations',
    {
      id: idColumn(),
      account_id: accountRef(),
      automation_name: { type: DataTypes.STRING(200), allowNull: false },
      event_type: { type: DataTypes.STRING(16), allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      from_name: { type: DataTypes.STRING(200), allowNull: true },
      from_email: { type: DataTypes.STRING(254), allowNull: true },
      locale: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'en' },
      // JSON text: trigger_config and timing_config as decisions.md describes them.
      trigger_config: { type: DataTypes.TEXT, allowNull: false },
      timing_config: { type: DataTypes.TEXT, allowNull: true },
      // JSON text of arrays: sanitized messages, member ids, department ids, milestone rules without their eCards.
      random_messages: { type: DataTypes.TEXT, allowNull: true },
      selected_member_ids: { type: DataTypes.TEXT, allowNull: true },
      selected_department_ids: { type: DataTypes.TEXT, allowNull: true },
      milestone_rules: { type: DataTypes.TEXT, allowNull: true },
      notify_days_before: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      // JSON text of { member_ids, department_ids }.
      notification_segment: { type: DataTypes.TEXT, allowNull: true },
      gift_card_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      gift_card: { type: DataTypes.TEXT, allowNull: true },
      // The last local date (YYYY-MM-DD, the automation's zone) whose send dates were handled; moved forward only.
      watermark: { type: DataTypes.CHAR(10), allowNull: true },
      // The local date the owner was last told that the quota refused a card (at most one email a day).
      quota_notice_on: { type: DataTypes.CHAR(10), allowNull: true },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('automations', ['account_id', 'created_at']);

  await queryInterface.createTable(
    'automation_ecards',
    {
      id: idColumn(),
      automation_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'automations', key: 'id' }, onDelete: 'CASCADE' },
      account_id: accountRef(),
      ecard_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'ecards', key: 'id' }, onDelete: 'CASCADE' },
      // selected | milestone | manager | department | segment
      role: { type: DataTypes.STRING(12), allowNull: false },
      // The rule in milestone_rules (role milestone).
      milestone_index: { type: DataTypes.INTEGER, allowNull: true },
      position: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    tableOptions,
  );
  await queryInterface.addIndex('automation_ecards', ['automation_id', 'role']);
  await queryInterface.addIndex('automation_ecards', ['account_id', 'ecard_id']);

  await queryInterface.createTable(
    'automation_sends',
    {
      id: idColumn(),
      automation_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'automations', key: 'id' }, onDelete: 'CASCADE' },
      account_id: accountRef(),
      // The celebrant (a card) or the notified person (a digest).
      member_id: { type: DataTypes.INTEGER, allowNull: false },
      // The year of the occasion (yearly), its date (one-time), or `<type>:<D>` (a digest).
      occurrence_key: { type: DataTypes.STRING(40), allowNull: false },
      kind: { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'card' },
      // pending | sent | failed | unknown | skipped | missed
      status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      reason: { type: DataTypes.STRING(1000), allowNull: true },
      // The firing's local date D that made the row.
      firing_date: { type: DataTypes.CHAR(10), allowNull: false },
      occasion_date: { type: DataTypes.CHAR(10), allowNull: true },
      send_date: { type: DataTypes.CHAR(10), allowNull: true },
      years: { type: DataTypes.INTEGER, allowNull: true },
      milestone_index: { type: DataTypes.INTEGER, allowNull: true },
      // Picked at claim (a hash of automation, member and occurrence key), so a retry sends the same card.
      ecard_id: { type: DataTypes.INTEGER, allowNull: true },
      message: { type: DataTypes.TEXT, allowNull: true },
      // A digest's celebrants: JSON text of [{ member_id, event, occasion_date, years? }].
      celebrants: { type: DataTypes.TEXT, allowNull: true },
      quota_month: { type: DataTypes.CHAR(7), allowNull: true },
      send_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'sends', key: 'id' }, onDelete: 'SET NULL' },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('automation_sends', ['automation_id', 'member_id', 'occurrence_key'], { unique: true, name: 'automation_sends_once' });
  await queryInterface.addIndex('automation_sends', ['automation_id', 'firing_date', 'status']);
  await queryInterface.addIndex('automation_sends', ['account_id', 'member_id']);
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('automation_sends');
  await queryInterface.dropTable('automation_ecards');
  await queryInterface.dropTable('automations');
};
