// Rewards (gift cards): each account's settings and spend rules, its spend counter (one row: the current day,
// week and month), its manual code pool (codes encrypted, a keyed hash refusing duplicates, one order per code),
// the orders (one per gifted recipient), the simulated provider's own orders, and each gift's reservation on the
// send or campaign that carries it.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, tableOptions, timestamp, timestamps } from '../columns.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'gift_settings',
    {
      account_id: { ...accountRef(), primaryKey: true },
      provider_mode: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'manual' },
      currency: { type: DataTypes.CHAR(3), allowNull: false, defaultValue: 'USD' },
      min_cents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 100 },
      max_cents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 50_000 },
      velocity_limits_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      claim_expiry_days: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 365 },
      ...timestamps(),
    },
    tableOptions,
  );

  await queryInterface.createTable(
    'gift_rules',
    {
      id: idColumn(),
      account_id: accountRef(),
      // day | week | month (UTC calendar periods, weeks from Monday)
      period: { type: DataTypes.STRING(5), allowNull: false },
      limit_cents: { type: DataTypes.BIGINT, allowNull: false },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('gift_rules', ['account_id', 'period'], { unique: true, name: 'gift_rules_one_per_period' });

  // One row per account: what the current day, week and month used (orders not failed or refunded, plus open
  // reservations), in cents. A period's start that is not the current one means nothing used yet.
  await queryInterface.createTable(
    'gift_spend',
    {
      account_id: { ...accountRef(), primaryKey: true },
      day_start: { type: DataTypes.CHAR(10), allowNull: true },
      day_cents: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      week_start: { type: DataTypes.CHAR(10), allowNull: true },
      week_cents: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      month_start: { type: DataTypes.CHAR(10), allowNull: true },
      month_cents: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
    },
    tableOptions,
  );

  await queryInterface.createTable(
    'gift_codes',
    {
      id: idColumn(),
      account_id: accountRef(),
      brand: { type: DataTypes.STRING(100), allowNull: false },
      denomination_cents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.CHAR(3), allowNull: false },
      // AES-256-GCM, base64 of nonce + ciphertext + tag; AAD `<account_id>:<pool>`; key_id names the key.
      code_ciphertext: { type: DataTypes.TEXT, allowNull: false },
      pin_ciphertext: { type: DataTypes.TEXT, allowNull: true },
      key_id: { type: DataTypes.STRING(16), allowNull: false },
      // HMAC-SHA256 of the normalized code: duplicates are refused without decrypting anything.
      code_hmac: { type: DataTypes.CHAR(64), allowNull: false },
      code_last4: { type: DataTypes.STRING(4), allowNull: true },
      expires_on: { type: DataTypes.CHAR(10), allowNull: true },
      // The order it was given to; unique, so no code is handed out twice.
      order_id: { type: DataTypes.INTEGER, allowNull: true },
      assigned_at: timestamp(true),
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('gift_codes', ['account_id', 'code_hmac'], { unique: true, name: 'gift_codes_no_duplicates' });
  await queryInterface.addIndex('gift_codes', ['order_id'], { unique: true, name: 'gift_codes_one_per_order' });
  await queryInterface.addIndex('gift_codes', ['account_id', 'brand', 'denomination_cents', 'order_id']);

  await queryInterface.createTable(
    'gift_orders',
    {
      id: idColumn(),
      account_id: accountRef(),
      // send:<sendId>:<n> | campaign:<campaignId>:<recipientId> | automation:<automationId>:<memberId>:<occurrence>
      order_key: { type: DataTypes.STRING(200), allowNull: false },
      // widget | campaign | automation
      scope: { type: DataTypes.STRING(10), allowNull: false },
      campaign_id: { type: DataTypes.INTEGER, allowNull: true },
      automation_id: { type: DataTypes.INTEGER, allowNull: true },
      send_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'sends', key: 'id' }, onDelete: 'SET NULL' },
      send_recipient_id: { type: DataTypes.INTEGER, allowNull: true },
      member_id: { type: DataTypes.INTEGER, allowNull: true },
      recipient_name: { type: DataTypes.STRING(200), allowNull: true },
      recipient_email: { type: DataTypes.STRING(254), allowNull: true },
      product_id: { type: DataTypes.STRING(200), allowNull: false },
      brand: { type: DataTypes.STRING(100), allowNull: false },
      amount_cents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.CHAR(3), allowNull: false },
      // manual | sandbox | <provider name>
      source: { type: DataTypes.STRING(20), allowNull: false },
      payment_status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      fulfillment_status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      claim_status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'unclaimed' },
      failure_reason: { type: DataTypes.STRING(200), allowNull: true },
      // The UTC day whose periods the gift's spend counts in (its reservation's day).
      spend_day: { type: DataTypes.CHAR(10), allowNull: false },
      code_id: { type: DataTypes.INTEGER, allowNull: true },
      // A provider's (or the sandbox's generated) code, encrypted as the pool's are.
      code_ciphertext: { type: DataTypes.TEXT, allowNull: true },
      pin_ciphertext: { type: DataTypes.TEXT, allowNull: true },
      key_id: { type: DataTypes.STRING(16), allowNull: true },
      code_last4: { type: DataTypes.STRING(4), allowNull: true },
      // SHA-256 of the claim link's token (made at the SMTP hand-off); null when no link is live.
      claim_token_hash: { type: DataTypes.CHAR(64), allowNull: true },
      claim_last4: { type: DataTypes.STRING(4), allowNull: true },
      // Erasure voids the claim page.
      voided: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      fulfilled_at: timestamp(true),
      claimed_at: timestamp(true),
      expires_at: timestamp(true),
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('gift_orders', ['order_key'], { unique: true, name: 'gift_orders_once' });
  await queryInterface.addIndex('gift_orders', ['claim_token_hash'], { unique: true, name: 'gift_orders_claim_token' });
  await queryInterface.addIndex('gift_orders', ['account_id', 'created_at']);
  await queryInterface.addIndex('gift_orders', ['account_id', 'campaign_id']);
  await queryInterface.addIndex('gift_orders', ['account_id', 'automation_id']);
  await queryInterface.addIndex('gift_orders', ['account_id', 'member_id']);
  await queryInterface.addIndex('gift_orders', ['send_id']);
  await queryInterface.addIndex('gift_orders', ['send_recipient_id']);
  await queryInterface.addIndex('gift_orders', ['claim_status', 'expires_at']);

  // The simulated provider's side: its orders, unique by the caller's external id (a retried buy finds its order).
  await queryInterface.createTable(
    'simulated_provider_orders',
    {
      id: idColumn(),
      external_id: { type: DataTypes.STRING(64), allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      sku: { type: DataTypes.STRING(100), allowNull: false },
      amount_cents: { type: DataTypes.INTEGER, allowNull: false },
      // fulfilled | declined | refunded
      status: { type: DataTypes.STRING(10), allowNull: false },
      // A `.42` amount answers late once: set when that late answer was given.
      delayed_once: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('simulated_provider_orders', ['external_id'], { unique: true, name: 'simulated_provider_orders_once' });

  // A gift carried by a send (send-ecard) or a campaign: its face value per recipient and what is still reserved.
  for (const table of ['sends', 'campaigns']) {
    await queryInterface.addColumn(table, 'gift_reserved_cents', { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 });
    await queryInterface.addColumn(table, 'gift_spend_day', { type: DataTypes.CHAR(10), allowNull: true });
  }
  await queryInterface.addColumn('sends', 'gift_product_id', { type: DataTypes.STRING(200), allowNull: true });
  await queryInterface.addColumn('sends', 'gift_amount_cents', { type: DataTypes.INTEGER, allowNull: true });
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.removeColumn('sends', 'gift_amount_cents');
  await queryInterface.removeColumn('sends', 'gift_product_id');
  for (const table of ['campaigns', 'sends']) {
    await queryInterface.removeColumn(table, 'gift_spend_day');
    await queryInterface.removeColumn(table, 'gift_reserved_cents');
  }
  await queryInterface.dropTable('simulated_provider_orders');
  await queryInterface.dropTable('gift_orders');
  await queryInterface.dropTable('gift_codes');
  await queryInterface.dropTable('gift_spend');
  await queryInterface.dropTable('gift_rules');
  await queryInterface.dropTable('gift_settings');
};
