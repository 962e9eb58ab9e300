// One recipient of a campaign (a directory member or a CSV row) and how it went: sent, failed, unknown (its send's
// claim outlived its attempt), skipped or canceled. Its send (made when its batch prepares it) holds the claim.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export const CAMPAIGN_RECIPIENT_STATUSES = ['pending', 'sent', 'failed', 'unknown', 'skipped', 'canceled'] as const;
export type CampaignRecipientStatus = (typeof CAMPAIGN_RECIPIENT_STATUSES)[number];

export function defineCampaignRecipient(sequelize: Sequelize) {
  class CampaignRecipient extends Model<InferAttributes<CampaignRecipient>, InferCreationAttributes<CampaignRecipient>> {
    declare id: CreationOptional<number>;
    declare campaign_id: number;
    declare account_id: number;
    declare source: 'directory' | 'csv';
    declare member_id: number | null;
    declare email: string;
    declare name: CreationOptional<string>;
    declare first_name: CreationOptional<string>;
    declare last_name: CreationOptional<string>;
    /** JSON text of the CSV row's merge fields, or null. */
    declare merge_fields: string | null;
    declare status: CreationOptional<CampaignRecipientStatus>;
    declare reason: CreationOptional<string | null>;
    declare ecard_id: CreationOptional<number | null>;
    declare send_id: CreationOptional<number | null>;
    declare sent_at: CreationOptional<Date | null>;
    /** The wave it goes out in (campaign_waves), or null when the campaign goes out at one instant. */
    declare wave_id: CreationOptional<number | null>;
  }
  CampaignRecipient.init(
    {
      id: idColumn(),
      campaign_id: { type: DataTypes.INTEGER, allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      source: { type: DataTypes.STRING(10), allowNull: false },
      member_id: { type: DataTypes.INTEGER, allowNull: true },
      email: { type: DataTypes.STRING(254), allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
      first_name: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
      last_name: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
      merge_fields: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      reason: { type: DataTypes.STRING(1000), allowNull: true },
      ecard_id: { type: DataTypes.INTEGER, allowNull: true },
      send_id: { type: DataTypes.INTEGER, allowNull: true },
      sent_at: { type: DataTypes.DATE(3), allowNull: true },
      wave_id: { type: DataTypes.INTEGER, allowNull: true },
    },
    { sequelize, tableName: 'campaign_recipients', modelName: 'CampaignRecipient', timestamps: false },
  );
  return CampaignRecipient;
}

export type CampaignRecipientModel = ReturnType<typeof defineCampaignRecipient>;
export type CampaignRecipient = InstanceType<CampaignRecipientModel>;
