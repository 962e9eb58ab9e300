// A campaign: one eCard design set sent in bulk to its recipients, now or at a scheduled time.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, reservedCents, timestamps } from './columns.ts';

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'canceled', 'failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export function defineCampaign(sequelize: Sequelize) {
  class Campaign extends Model<InferAttributes<Campaign>, InferCreationAttributes<Campaign>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    /** The backing widget (is_campaign) that holds the campaign's eCard copies. */
    declare widget_id: number;
    declare campaign_name: string;
    declare from_name: string | null;
    declare from_email: string | null;
    declare personal_message: string | null;
    declare locale: CreationOptional<string>;
    declare gift_card_enabled: CreationOptional<boolean>;
    /** JSON text of { product_id, amount }, or null. */
    declare gift_card: string | null;
    declare status: CampaignStatus;
    declare scheduled_at: CreationOptional<Date | null>;
    /** An IANA zone, or `recipient`: each recipient's own zone (then `scheduled_wall` holds the wall-clock time). */
    declare scheduled_timezone: CreationOptional<string | null>;
    declare scheduled_wall: CreationOptional<string | null>;
    declare started_at: CreationOptional<Date | null>;
    declare completed_at: CreationOptional<Date | null>;
    declare quota_month: CreationOptional<string | null>;
    declare quota_count: CreationOptional<number>;
    declare workflow_started: CreationOptional<boolean>;
    /** The gift spend still reserved for recipients without an order yet, and the UTC day it counts in. */
    declare gift_reserved_cents: CreationOptional<number>;
    declare gift_spend_day: CreationOptional<string | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Campaign.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      widget_id: { type: DataTypes.INTEGER, allowNull: false },
      campaign_name: { type: DataTypes.STRING(200), allowNull: false },
      from_name: { type: DataTypes.STRING(200), allowNull: true },
      from_email: { type: DataTypes.STRING(254), allowNull: true },
      personal_message: { type: DataTypes.TEXT, allowNull: true },
      locale: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'en' },
      gift_card_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      gift_card: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.STRING(10), allowNull: false },
      scheduled_at: { type: DataTypes.DATE(3), allowNull: true },
      scheduled_timezone: { type: DataTypes.STRING(64), allowNull: true },
      scheduled_wall: { type: DataTypes.STRING(23), allowNull: true },
      started_at: { type: DataTypes.DATE(3), allowNull: true },
      completed_at: { type: DataTypes.DATE(3), allowNull: true },
      quota_month: { type: DataTypes.CHAR(7), allowNull: true },
      quota_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      workflow_started: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      gift_reserved_cents: reservedCents(),
      gift_spend_day: { type: DataTypes.CHAR(10), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'campaigns', modelName: 'Campaign' },
  );
  return Campaign;
}

export type CampaignModel = ReturnType<typeof defineCampaign>;
export type Campaign = InstanceType<CampaignModel>;
