// The audit log (issue 49, item 6): one row per thing a person, a key, an operator or the system did to an account,
// never updated. Rows hold ids, never a secret or a member's personal data (services/audit/record.ts says what goes
// in). Read newest first per account (the id index), filtered by time; pruned by age (the occurred_at index).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, tableOptions, timestamp } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'audit_events',
    {
      id: idColumn(),
      // The twin acted on (team, user and session events: the live account).
      account_id: accountRef(),
      occurred_at: timestamp(),
      actor_type: { type: DataTypes.STRING(16), allowNull: false },
      actor_user_id: { type: DataTypes.INTEGER, allowNull: true },
      actor_key_id: { type: DataTypes.INTEGER, allowNull: true },
      // An email, or `<key name> (csk_live_…1234)`: what the actor was called then.
      actor_label: { type: DataTypes.STRING(400), allowNull: false, defaultValue: '' },
      action: { type: DataTypes.STRING(64), allowNull: false },
      target_type: { type: DataTypes.STRING(32), allowNull: true },
      target_id: { type: DataTypes.STRING(64), allowNull: true },
      outcome: { type: DataTypes.STRING(8), allowNull: false },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      user_agent: { type: DataTypes.STRING(255), allowNull: true },
      request_id: { type: DataTypes.STRING(64), allowNull: true },
      surface: { type: DataTypes.STRING(8), allowNull: false },
      // JSON, at most 4 KB, of the action's allow-listed fields.
      details: { type: DataTypes.TEXT, allowNull: true },
    },
    tableOptions,
  );
  await queryInterface.addIndex('audit_events', ['account_id', 'id'], { name: 'audit_events_account_id' });
  await queryInterface.addIndex('audit_events', ['occurred_at'], { name: 'audit_events_occurred_at' });
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('audit_events');
};
