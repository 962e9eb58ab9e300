// Rewards (gift cards): settings, spend rules, the spend counter, the manual code pool, the orders and the
// simulated provider's orders (tables in migration 20261125000000-rewards).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;
export const FULFILLMENT_STATUSES = ['pending', 'fulfilled', 'failed', 'canceled'] as const;
export const CLAIM_STATUSES = ['unclaimed', 'claimed', 'expired'] as const;
export const GIFT_SCOPES = ['widget', 'campaign', 'automation'] as const;
export const SPEND_PERIODS = ['day', 'week', 'month'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export type GiftScope = (typeof GIFT_SCOPES)[number];
export type SpendPeriod = (typeof SPEND_PERIODS)[number];
export type ProviderMode = 'manual' | 'provider';

const date3 = (allowNull = true) => ({ type: DataTypes.DATE(3), allowNull });

export function defineGiftModels(sequelize: Sequelize) {
  class GiftSettings extends Model<InferAttributes<GiftSettings>, InferCreationAttributes<GiftSettings>> {
    declare account_id: number;
    declare provider_mode: CreationOptional<ProviderMode>;
    declare currency: CreationOptional<string>;
    declare min_cents: CreationOptional<number>;
    declare max_cents: CreationOptional<number>;
    declare velocity_limits_enabled: CreationOptional<boolean>;
    declare claim_expiry_days: CreationOptional<number>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  GiftSettings.init(
    {
      account_id: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
      provider_mode: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'manual' },
      currency: { type: DataTypes.CHAR(3), allowNull: false, defaultValue: 'USD' },
      min_cents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 100 },
      max_cents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 50_000 },
      velocity_limits_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      claim_expiry_days: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 365 },
      ...timestamps(),
    },
    { sequelize, tableName: 'gift_settings', modelName: 'GiftSettings' },
  );

  class GiftRule extends Model<InferAttributes<GiftRule>, InferCreationAttributes<GiftRule>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare period: SpendPeriod;
    declare limit_cents: number;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  GiftRule.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      period: { type: DataTypes.STRING(5), allowNull: false },
      // BIGINT comes back as a string from mysql2: read as a number.
      limit_cents: { type: DataTypes.BIGINT, allowNull: false, get(this: GiftRule) { return Number(this.getDataValue('limit_cents')); } },
      ...timestamps(),
    },
    { sequelize, tableName: 'gift_rules', modelName: 'GiftRule' },
  );

  class GiftSpend extends Model<InferAttributes<GiftSpend>, InferCreationAttributes<GiftSpend>> {
    declare account_id: number;
    declare day_start: CreationOptional<string | null>;
    declare day_cents: CreationOptional<number>;
    declare week_start: CreationOptional<string | null>;
    declare week_cents: CreationOptional<number>;
    declare month_start: CreationOptional<string | null>;
    declare month_cents: CreationOptional<number>;
  }
  const cents = (name: 'day_cents' | 'week_cents' | 'month_cents') => ({
    type: DataTypes.BIGINT,
    allowNull: false,
    defaultValue: 0,
    get(this: GiftSpend) {
      return Number(this.getDataValue(name));
    },
  });
  GiftSpend.init(
    {
      account_id: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
      day_start: { type: DataTypes.CHAR(10), allowNull: true },
      day_cents: cents('day_cents'),
      week_start: { type: DataTypes.CHAR(10), allowNull: true },
      week_cents: cents('week_cents'),
      month_start: { type: DataTypes.CHAR(10), allowNull: true },
      month_cents: cents('month_cents'),
    },
    { sequelize, tableName: 'gift_spend', modelName: 'GiftSpend', timestamps: false },
  );

  class GiftCode extends Model<InferAttributes<GiftCode>, InferCreationAttributes<GiftCode>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare brand: string;
    declare denomination_cents: number;
    declare currency: string;
    declare code_ciphertext: string;
    declare pin_ciphertext: string | null;
    declare key_id: string;
    declare code_hmac: string;
    declare code_last4: string | null;
    declare expires_on: string | null;
    declare order_id: CreationOptional<number | null>;
    /** The send-ecard send (sends.id) that holds this code from its accept until its dispatch gives it (or it ends). */
    declare held_send_id: CreationOptional<number | null>;
    declare assigned_at: CreationOptional<Date | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  GiftCode.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      brand: { type: DataTypes.STRING(100), allowNull: false },
      denomination_cents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.CHAR(3), allowNull: false },
      code_ciphertext: { type: DataTypes.TEXT, allowNull: false },
      pin_ciphertext: { type: DataTypes.TEXT, allowNull: true },
      key_id: { type: DataTypes.STRING(16), allowNull: false },
      code_hmac: { type: DataTypes.CHAR(64), allowNull: false },
      code_last4: { type: DataTypes.STRING(4), allowNull: true },
      expires_on: { type: DataTypes.CHAR(10), allowNull: true },
      order_id: { type: DataTypes.INTEGER, allowNull: true },
      held_send_id: { type: DataTypes.INTEGER, allowNull: true },
      assigned_at: date3(),
      ...timestamps(),
    },
    { sequelize, tableName: 'gift_codes', modelName: 'GiftCode' },
  );

  class GiftOrder extends Model<InferAttributes<GiftOrder>, InferCreationAttributes<GiftOrder>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare order_key: string;
    declare scope: GiftScope;
    declare campaign_id: number | null;
    declare automation_id: number | null;
    declare send_id: number | null;
    declare send_recipient_id: number | null;
    declare member_id: number | null;
    declare recipient_name: string | null;
    declare recipient_email: string | null;
    declare product_id: string;
    declare brand: string;
    declare amount_cents: number;
    declare currency: string;
    declare source: string;
    declare payment_status: CreationOptional<PaymentStatus>;
    declare fulfillment_status: CreationOptional<FulfillmentStatus>;
    declare claim_status: CreationOptional<ClaimStatus>;
    declare failure_reason: CreationOptional<string | null>;
    declare spend_day: string;
    declare code_id: CreationOptional<number | null>;
    declare code_ciphertext: CreationOptional<string | null>;
    declare pin_ciphertext: CreationOptional<string | null>;
    declare key_id: CreationOptional<string | null>;
    declare code_last4: CreationOptional<string | null>;
    declare claim_token_hash: CreationOptional<string | null>;
    declare claim_last4: CreationOptional<string | null>;
    declare voided: CreationOptional<boolean>;
    declare fulfilled_at: CreationOptional<Date | null>;
    declare claimed_at: CreationOptional<Date | null>;
    declare expires_at: CreationOptional<Date | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  GiftOrder.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      order_key: { type: DataTypes.STRING(200), allowNull: false },
      scope: { type: DataTypes.STRING(10), allowNull: false },
      campaign_id: { type: DataTypes.INTEGER, allowNull: true },
      automation_id: { type: DataTypes.INTEGER, allowNull: true },
      send_id: { type: DataTypes.INTEGER, allowNull: true },
      send_recipient_id: { type: DataTypes.INTEGER, allowNull: true },
      member_id: { type: DataTypes.INTEGER, allowNull: true },
      recipient_name: { type: DataTypes.STRING(200), allowNull: true },
      recipient_email: { type: DataTypes.STRING(254), allowNull: true },
      product_id: { type: DataTypes.STRING(200), allowNull: false },
      brand: { type: DataTypes.STRING(100), allowNull: false },
      amount_cents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.CHAR(3), allowNull: false },
      source: { type: DataTypes.STRING(20), allowNull: false },
      payment_status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      fulfillment_status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      claim_status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'unclaimed' },
      failure_reason: { type: DataTypes.STRING(200), allowNull: true },
      spend_day: { type: DataTypes.CHAR(10), allowNull: false },
      code_id: { type: DataTypes.INTEGER, allowNull: true },
      code_ciphertext: { type: DataTypes.TEXT, allowNull: true },
      pin_ciphertext: { type: DataTypes.TEXT, allowNull: true },
      key_id: { type: DataTypes.STRING(16), allowNull: true },
      code_last4: { type: DataTypes.STRING(4), allowNull: true },
      claim_token_hash: { type: DataTypes.CHAR(64), allowNull: true },
      claim_last4: { type: DataTypes.STRING(4), allowNull: true },
      voided: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      fulfilled_at: date3(),
      claimed_at: date3(),
      expires_at: date3(),
      ...timestamps(),
    },
    { sequelize, tableName: 'gift_orders', modelName: 'GiftOrder' },
  );

  class SimulatedProviderOrder extends Model<InferAttributes<SimulatedProviderOrder>, InferCreationAttributes<SimulatedProviderOrder>> {
    declare id: CreationOptional<number>;
    declare external_id: string;
    declare account_id: number;
    declare sku: string;
    declare amount_cents: number;
    declare status: 'fulfilled' | 'declined' | 'refunded';
    declare delayed_once: CreationOptional<boolean>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  SimulatedProviderOrder.init(
    {
      id: idColumn(),
      external_id: { type: DataTypes.STRING(64), allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      sku: { type: DataTypes.STRING(100), allowNull: false },
      amount_cents: { type: DataTypes.INTEGER, allowNull: false },
      status: { type: DataTypes.STRING(10), allowNull: false },
      delayed_once: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps(),
    },
    { sequelize, tableName: 'simulated_provider_orders', modelName: 'SimulatedProviderOrder' },
  );

  return { GiftSettings, GiftRule, GiftSpend, GiftCode, GiftOrder, SimulatedProviderOrder };
}

type GiftModels = ReturnType<typeof defineGiftModels>;
export type GiftSettings = InstanceType<GiftModels['GiftSettings']>;
export type GiftRule = InstanceType<GiftModels['GiftRule']>;
export type GiftSpend = InstanceType<GiftModels['GiftSpend']>;
export type GiftCode = InstanceType<GiftModels['GiftCode']>;
export type GiftOrder = InstanceType<GiftModels['GiftOrder']>;
export type SimulatedProviderOrder = InstanceType<GiftModels['SimulatedProviderOrder']>;
