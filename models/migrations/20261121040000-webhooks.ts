// The webhook engine: endpoints (the ecard_shared URL and member-change subscriptions), signing secrets,
// deliveries with their attempts, the outbox's draining state, and the queue of emails to owners.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, mediumText, tableOptions, timestamp, timestamps } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  // Set in the transaction that turns an event into its deliveries.
  await queryInterface.addColumn('event_outbox', 'drained_at', timestamp(true));
  // An erased member's events: their personal data goes once their deliveries finish.
  await queryInterface.addColumn('event_outbox', 'redact_after_delivery', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
  await queryInterface.addIndex('event_outbox', ['drained_at', 'id'], { name: 'event_outbox_undrained' });

  await queryInterface.createTable(
    'webhook_endpoints',
    {
      id: idColumn(),
      account_id: accountRef(),
      // `ecard_shared` (the account's one URL) or `member_change` (a subscription to one event type).
      kind: { type: DataTypes.STRING(20), allowNull: false },
      event_type: { type: DataTypes.STRING(64), allowNull: true },
      url: { type: DataTypes.STRING(2048), allowNull: false },
      // Integration-platform endpoints are never paused (a 410 removes them instead).
      integration: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      consecutive_failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      paused_at: timestamp(true),
      // Unsubscribed (or gone with a 410): kept so the delivery log still names it.
      removed_at: timestamp(true),
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('webhook_endpoints', ['account_id', 'kind', 'removed_at']);

  await queryInterface.createTable(
    'webhook_secrets',
    {
      account_id: { ...accountRef(), primaryKey: true },
      secret: { type: DataTypes.STRING(100).BINARY, allowNull: false },
      // The secret before the last rotation; it signs too for 24 hours after `rotated_at`.
      previous_secret: { type: DataTypes.STRING(100).BINARY, allowNull: true },
      rotated_at: timestamp(true),
      ...timestamps(),
    },
    tableOptions,
  );

  await queryInterface.createTable(
    'webhook_deliveries',
    {
      id: idColumn(),
      account_id: accountRef(),
      endpoint_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'webhook_endpoints', key: 'id' }, onDelete: 'CASCADE' },
      outbox_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'event_outbox', key: 'id' }, onDelete: 'CASCADE' },
      event_id: { type: DataTypes.STRING(64).BINARY, allowNull: false },
      event_type: { type: DataTypes.STRING(64), allowNull: false },
      // `auto` (an event), `test` (send test); replays are attempts of the delivery they replay.
      trigger: { type: DataTypes.STRING(10), allowNull: false },
      status: { type: DataTypes.STRING(12), allowNull: false },
      error: { type: DataTypes.STRING(500), allowNull: true },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      workflow_id: { type: DataTypes.STRING(200), allowNull: false },
      workflow_started: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      finished_at: timestamp(true),
      ...timestamps(),
    },
    tableOptions,
  );
  // One delivery per event and endpoint, whatever crashes and retries happen while draining.
  await queryInterface.addIndex('webhook_deliveries', ['event_id', 'endpoint_id'], { unique: true, name: 'webhook_deliveries_event_endpoint' });
  await queryInterface.addIndex('webhook_deliveries', ['account_id', 'created_at']);
  await queryInterface.addIndex('webhook_deliveries', ['workflow_started', 'status']);
  await queryInterface.addIndex('webhook_deliveries', ['outbox_id']);

  await queryInterface.createTable(
    'webhook_attempts',
    {
      id: idColumn(),
      delivery_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'webhook_deliveries', key: 'id' }, onDelete: 'CASCADE' },
      // Stable per attempt (workflow id + attempt number): an activity run twice records one attempt.
      attempt_key: { type: DataTypes.STRING(250).BINARY, allowNull: false, unique: true },
      trigger: { type: DataTypes.STRING(10), allowNull: false },
      request_headers: { type: DataTypes.TEXT, allowNull: false },
      response_status: { type: DataTypes.INTEGER, allowNull: true },
      response_body: { type: DataTypes.TEXT, allowNull: true },
      error: { type: DataTypes.STRING(500), allowNull: true },
      outcome: { type: DataTypes.STRING(12), allowNull: false },
      retry_after_seconds: { type: DataTypes.DOUBLE, allowNull: true },
      duration_ms: { type: DataTypes.INTEGER, allowNull: false },
      started_at: timestamp(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('webhook_attempts', ['delivery_id', 'id']);

  await queryInterface.createTable(
    'mail_queue',
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'accounts', key: 'id' }, onDelete: 'CASCADE' },
      kind: { type: DataTypes.STRING(40), allowNull: false },
      recipient: { type: DataTypes.STRING(254), allowNull: false },
      subject: { type: DataTypes.STRING(500), allowNull: false },
      text_body: { type: mediumText(queryInterface), allowNull: false },
      sent_at: timestamp(true),
      created_at: timestamp(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('mail_queue', ['sent_at', 'id']);
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('mail_queue');
  await queryInterface.dropTable('webhook_attempts');
  await queryInterface.dropTable('webhook_deliveries');
  await queryInterface.dropTable('webhook_secrets');
  await queryInterface.dropTable('webhook_endpoints');
  await queryInterface.removeIndex('event_outbox', 'event_outbox_undrained');
  await queryInterface.removeColumn('event_outbox', 'redact_after_delivery');
  await queryInterface.removeColumn('event_outbox', 'drained_at');
};
