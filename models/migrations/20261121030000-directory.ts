// The directory: team members, departments, custom date fields, and the outbox of change events.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, mediumText, tableOptions, timestamp, timestamps } from '../columns.ts';

// BINARY: identifiers compare byte for byte on MySQL, as they do on SQLite (a *_ci collation would make
// `E1` and `e1`, or `é` and `e`, the same employee). Emails and department keys are lower-cased before storing.
const identifier = (length: number, allowNull: boolean) => ({ type: DataTypes.STRING(length).BINARY, allowNull });
const text = (length: number) => ({ type: DataTypes.STRING(length), allowNull: true });
const memberRef = (onDelete: 'CASCADE' | 'SET NULL', allowNull = false) => ({
  type: DataTypes.INTEGER,
  allowNull,
  references: { model: 'team_members', key: 'id' },
  onDelete,
});

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'team_members',
    {
      id: idColumn(),
      account_id: accountRef(),
      email: identifier(254, false),
      employee_id: identifier(100, true),
      first_name: text(100),
      last_name: text(100),
      job_position: text(200),
      date_of_birth: { type: DataTypes.DATEONLY, allowNull: true },
      hire_date: { type: DataTypes.DATEONLY, allowNull: true },
      profile_image_url: text(2048),
      manager_id: memberRef('SET NULL', true),
      // A manager named by email who is not in the directory yet; linked when that member arrives.
      pending_manager_email: identifier(254, true),
      disabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('team_members', ['account_id', 'email'], { unique: true, name: 'team_members_account_email' });
  await queryInterface.addIndex('team_members', ['account_id', 'employee_id'], { unique: true, name: 'team_members_account_employee_id' });
  // Cursor paging (`after_id`), with and without the status filter, and delta pulls (`updated_since`).
  await queryInterface.addIndex('team_members', ['account_id', 'id'], { name: 'team_members_account_id' });
  await queryInterface.addIndex('team_members', ['account_id', 'disabled', 'id'], { name: 'team_members_account_status_id' });
  await queryInterface.addIndex('team_members', ['account_id', 'updated_at'], { name: 'team_members_account_updated' });
  await queryInterface.addIndex('team_members', ['account_id', 'pending_manager_email'], { name: 'team_members_pending_manager' });
  await queryInterface.addIndex('team_members', ['manager_id']);

  await queryInterface.createTable(
    'departments',
    {
      id: idColumn(),
      account_id: accountRef(),
      name: { type: DataTypes.STRING(100), allowNull: false },
      // The lower-cased name: departments match case-insensitively, one per name.
      name_key: identifier(100, false),
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('departments', ['account_id', 'name_key'], { unique: true, name: 'departments_account_name' });

  await queryInterface.createTable(
    'member_departments',
    {
      member_id: { ...memberRef('CASCADE'), primaryKey: true },
      department_id: {
        type: DataTypes.INTEGER,
        allowNull: false,
        primaryKey: true,
        references: { model: 'departments', key: 'id' },
        onDelete: 'CASCADE',
      },
    },
    tableOptions,
  );
  await queryInterface.addIndex('member_departments', ['department_id']);

  await queryInterface.createTable(
    'custom_fields',
    {
      id: idColumn(),
      account_id: accountRef(),
      field_key: identifier(64, false),
      label: { type: DataTypes.STRING(200), allowNull: false },
      field_type: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'date' },
      required: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('custom_fields', ['account_id', 'field_key'], { unique: true, name: 'custom_fields_account_key' });

  await queryInterface.createTable(
    'member_custom_values',
    {
      member_id: { ...memberRef('CASCADE'), primaryKey: true },
      field_id: {
        type: DataTypes.INTEGER,
        allowNull: false,
        primaryKey: true,
        references: { model: 'custom_fields', key: 'id' },
        onDelete: 'CASCADE',
      },
      value: { type: DataTypes.DATEONLY, allowNull: false },
    },
    tableOptions,
  );
  // Date-driven automations find the members whose field falls on a day.
  await queryInterface.addIndex('member_custom_values', ['field_id', 'value']);

  await queryInterface.createTable(
    'event_outbox',
    {
      id: idColumn(),
      event_id: { type: DataTypes.CHAR(36).BINARY, allowNull: false, unique: true },
      account_id: accountRef(),
      event_type: { type: DataTypes.STRING(64), allowNull: false },
      source: { type: DataTypes.STRING(20), allowNull: false },
      // The member an event is about (no foreign key: the delete event outlives its member).
      member_id: { type: DataTypes.INTEGER, allowNull: true },
      // The delivery body, serialized once: the exact bytes every attempt sends.
      payload: { type: mediumText(queryInterface), allowNull: false },
      occurred_at: timestamp(),
      redacted_at: timestamp(true),
    },
    tableOptions,
  );
  await queryInterface.addIndex('event_outbox', ['account_id', 'member_id']);
  await queryInterface.addIndex('event_outbox', ['account_id', 'occurred_at']);
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('event_outbox');
  await queryInterface.dropTable('member_custom_values');
  await queryInterface.dropTable('custom_fields');
  await queryInterface.dropTable('member_departments');
  await queryInterface.dropTable('departments');
  await queryInterface.dropTable('team_members');
};
