// Campaigns: the campaign (a draft until scheduled or sent, with its backing widget of eCard copies), its
// recipients (directory members and CSV rows, each with its state; the claim lives on the send made for it), the origin of every send (a single send, a
// campaign's or an automation's), the source of an eCard copy, and one-click unsubscribe links.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, tableOptions, timestamp, timestamps } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'campaigns',
    {
      id: idColumn(),
      account_id: accountRef(),
      // The widget that holds the campaign's eCard copies (is_campaign), made with the campaign.
      widget_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'widgets', key: 'id' } },
      campaign_name: { type: DataTypes.STRING(200), allowNull: false },
      from_name: { type: DataTypes.STRING(200), allowNull: true },
      from_email: { type: DataTypes.STRING(254), allowNull: true },
      personal_message: { type: DataTypes.TEXT, allowNull: true },
      locale: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'en' },
      gift_card_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      // JSON text of { product_id, amount }, or null.
      gift_card: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.STRING(10), allowNull: false },
      scheduled_at: timestamp(true),
      scheduled_timezone: { type: DataTypes.STRING(64), allowNull: true },
      started_at: timestamp(true),
      completed_at: timestamp(true),
      // The month (YYYY-MM) whose quota the campaign reserved, and how many emails are still reserved.
      quota_month: { type: DataTypes.CHAR(7), allowNull: true },
      quota_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      // Set when a wake reached the campaign's workflow; the sweeper starts the ones that lack it.
      workflow_started: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('campaigns', ['account_id', 'created_at']);
  await queryInterface.addIndex('campaigns', ['workflow_started', 'status']);

  await queryInterface.createTable(
    'campaign_recipients',
    {
      id: idColumn(),
      campaign_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'campaigns', key: 'id' }, onDelete: 'CASCADE' },
      account_id: accountRef(),
      source: { type: DataTypes.STRING(10), allowNull: false },
      member_id: { type: DataTypes.INTEGER, allowNull: true },
      email: { type: DataTypes.STRING(254), allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
      first_name: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
      last_name: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
      // JSON text of the CSV row's merge fields.
      merge_fields: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      reason: { type: DataTypes.STRING(1000), allowNull: true },
      ecard_id: { type: DataTypes.INTEGER, allowNull: true },
      // The send made for this recipient when its batch prepared it.
      send_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'sends', key: 'id' }, onDelete: 'SET NULL' },
      sent_at: timestamp(true),
    },
    tableOptions,
  );
  await queryInterface.addIndex('campaign_recipients', ['campaign_id', 'status']);
  await queryInterface.addIndex('campaign_recipients', ['account_id', 'member_id']);
  await queryInterface.addIndex('campaign_recipients', ['account_id', 'email']);

  // Bulk claims: one UPDATE marks a micro-batch of recipients with a token, then the rows with it are this try's.
  await queryInterface.addColumn('send_recipients', 'claim_token', { type: DataTypes.CHAR(36).BINARY, allowNull: true });
  await queryInterface.addIndex('send_recipients', ['claim_token'], { name: 'send_recipients_claim' });

  // Where a send came from; every existing send is a single one.
  await queryInterface.addColumn('sends', 'origin', { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'single' });
  await queryInterface.addColumn('sends', 'origin_id', { type: DataTypes.INTEGER, allowNull: true });
  await queryInterface.addIndex('sends', ['origin', 'origin_id'], { name: 'sends_origin' });

  // An eCard copied into a campaign's widget remembers its source (the campaigns usage check).
  await queryInterface.addColumn('ecards', 'source_ecard_id', { type: DataTypes.INTEGER, allowNull: true });
  await queryInterface.addIndex('ecards', ['account_id', 'source_ecard_id'], { name: 'ecards_source' });

  // One-click unsubscribe (RFC 8058): one unguessable token per address and account, reused by every bulk email.
  await queryInterface.createTable(
    'unsubscribe_links',
    {
      token: { type: DataTypes.STRING(32).BINARY, primaryKey: true, allowNull: false },
      account_id: accountRef(),
      email: { type: DataTypes.STRING(254), allowNull: false },
      created_at: timestamp(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('unsubscribe_links', ['account_id', 'email'], { unique: true, name: 'unsubscribe_links_account_email' });
};

// Columns are dropped with ALTER TABLE on both databases: Sequelize's SQLite removeColumn rebuilds the table,
// which would cascade to the rows that reference it.
export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  await queryInterface.dropTable('unsubscribe_links');
  await queryInterface.removeIndex('ecards', 'ecards_source');
  await sequelize.query('ALTER TABLE ecards DROP COLUMN source_ecard_id');
  await queryInterface.removeIndex('sends', 'sends_origin');
  await sequelize.query('ALTER TABLE sends DROP COLUMN origin_id');
  await sequelize.query('ALTER TABLE sends DROP COLUMN origin');
  await queryInterface.removeIndex('send_recipients', 'send_recipients_claim');
  await sequelize.query('ALTER TABLE send_recipients DROP COLUMN claim_token');
  await queryInterface.dropTable('campaign_recipients');
  await queryInterface.dropTable('campaigns');
};
