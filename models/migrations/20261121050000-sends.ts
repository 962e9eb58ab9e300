// Sends: the send and its recipients (with the claim written before SMTP), idempotency keys, monthly quota
// counters, suppression lists, suspended accounts, and the mail_sink of simulated deliveries.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, mediumText, tableOptions, timestamp, timestamps } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  // An account whose sending is suspended (anti-spam): every send is refused with `spammer`. A table of its own,
  // not a column of accounts: SQLite drops a column by rebuilding the table, which would cascade to its children.
  await queryInterface.createTable(
    'send_suspensions',
    { account_id: { ...accountRef(), primaryKey: true }, created_at: timestamp() },
    tableOptions,
  );

  await queryInterface.createTable(
    'sends',
    {
      id: idColumn(),
      // The public id (`sendId`): a UUID, also the ecard_shared event id and part of the workflow id.
      send_id: { type: DataTypes.CHAR(36).BINARY, allowNull: false, unique: true },
      account_id: accountRef(),
      ecard_id: { type: DataTypes.INTEGER, allowNull: false },
      widget_id: { type: DataTypes.INTEGER, allowNull: false },
      mode: { type: DataTypes.STRING(10), allowNull: false },
      status: { type: DataTypes.STRING(10), allowNull: false },
      sandbox: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      sender_name: { type: DataTypes.STRING(200), allowNull: false },
      sender_email: { type: DataTypes.STRING(254), allowNull: false },
      personal_message: { type: DataTypes.TEXT, allowNull: true },
      locale: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'en' },
      merge_tags: { type: DataTypes.TEXT, allowNull: true },
      override_props: { type: DataTypes.TEXT, allowNull: true },
      send_at: timestamp(),
      // At least 128 random bits: the share page's address.
      stat_vanity_id: { type: DataTypes.STRING(32).BINARY, allowNull: false, unique: true },
      opened_at: timestamp(true),
      // The month (YYYY-MM) whose quota this send reserved, and how many emails.
      quota_month: { type: DataTypes.CHAR(7), allowNull: true },
      quota_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      emails_sent: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      error: { type: DataTypes.STRING(1000), allowNull: true },
      workflow_started: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('sends', ['account_id', 'created_at']);
  await queryInterface.addIndex('sends', ['workflow_started', 'id']);

  await queryInterface.createTable(
    'send_recipients',
    {
      id: idColumn(),
      send_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'sends', key: 'id' }, onDelete: 'CASCADE' },
      position: { type: DataTypes.INTEGER, allowNull: false },
      recipient_name: { type: DataTypes.STRING(200), allowNull: false },
      recipient_email: { type: DataTypes.STRING(254), allowNull: true },
      status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      // The card as rendered for this recipient, kept with the send.
      rendered_subject: { type: DataTypes.STRING(1000), allowNull: true },
      rendered_header: { type: DataTypes.STRING(1000), allowNull: true },
      rendered_html: { type: mediumText(queryInterface), allowNull: true },
      // The claim: written before SMTP is asked, so a retry never sends a second email.
      message_id: { type: DataTypes.STRING(250), allowNull: true },
      claimed_at: timestamp(true),
      finished_at: timestamp(true),
      error: { type: DataTypes.STRING(1000), allowNull: true },
    },
    tableOptions,
  );
  await queryInterface.addIndex('send_recipients', ['send_id', 'position'], { unique: true, name: 'send_recipients_send_position' });

  await queryInterface.createTable(
    'idempotency_keys',
    {
      account_id: { ...accountRef(), primaryKey: true },
      idem_key: { type: DataTypes.STRING(255).BINARY, allowNull: false, primaryKey: true },
      request_hash: { type: DataTypes.CHAR(64).BINARY, allowNull: false },
      send_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'sends', key: 'id' }, onDelete: 'CASCADE' },
      created_at: timestamp(),
    },
    tableOptions,
  );

  await queryInterface.createTable(
    'quota_usage',
    {
      account_id: { ...accountRef(), primaryKey: true },
      month: { type: DataTypes.CHAR(7), allowNull: false, primaryKey: true },
      used: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    tableOptions,
  );

  await queryInterface.createTable(
    'suppressions',
    {
      id: idColumn(),
      account_id: accountRef(),
      kind: { type: DataTypes.STRING(10), allowNull: false },
      value: { type: DataTypes.STRING(254).BINARY, allowNull: false },
      created_at: timestamp(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('suppressions', ['account_id', 'kind', 'value'], { unique: true, name: 'suppressions_account_kind_value' });

  await queryInterface.createTable(
    'mail_sink',
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'accounts', key: 'id' }, onDelete: 'CASCADE' },
      message_id: { type: DataTypes.STRING(250), allowNull: false },
      sender: { type: DataTypes.STRING(500), allowNull: false },
      recipient: { type: DataTypes.STRING(254), allowNull: false },
      reply_to: { type: DataTypes.STRING(254), allowNull: true },
      subject: { type: DataTypes.STRING(1000), allowNull: false },
      text_body: { type: mediumText(queryInterface), allowNull: false },
      html_body: { type: mediumText(queryInterface), allowNull: true },
      created_at: timestamp(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('mail_sink', ['account_id', 'id']);
  await queryInterface.addIndex('mail_sink', ['message_id']);
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('mail_sink');
  await queryInterface.dropTable('suppressions');
  await queryInterface.dropTable('quota_usage');
  await queryInterface.dropTable('idempotency_keys');
  await queryInterface.dropTable('send_recipients');
  await queryInterface.dropTable('sends');
  await queryInterface.dropTable('send_suspensions');
};
