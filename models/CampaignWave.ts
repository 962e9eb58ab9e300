// One wave of a campaign: its recipients in one time zone, due at one instant (their wall-clock time there, moved
// past quiet hours), with the quota reserved for them against that instant's month. Done once `completed_at` is set.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineCampaignWave(sequelize: Sequelize) {
  class CampaignWave extends Model<InferAttributes<CampaignWave>, InferCreationAttributes<CampaignWave>> {
    declare id: CreationOptional<number>;
    declare campaign_id: number;
    declare timezone: string;
    declare send_at: Date;
    declare recipients: number;
    declare quota_month: string | null;
    declare quota_count: number;
    declare completed_at: CreationOptional<Date | null>;
  }
  CampaignWave.init(
    {
      id: idColumn(),
      campaign_id: { type: DataTypes.INTEGER, allowNull: false },
      timezone: { type: DataTypes.STRING(64), allowNull: false },
      send_at: { type: DataTypes.DATE(3), allowNull: false },
      recipients: { type: DataTypes.INTEGER, allowNull: false },
      quota_month: { type: DataTypes.CHAR(7), allowNull: true },
      quota_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      completed_at: { type: DataTypes.DATE(3), allowNull: true },
    },
    { sequelize, tableName: 'campaign_waves', modelName: 'CampaignWave', timestamps: false },
  );
  return CampaignWave;
}

export type CampaignWaveModel = ReturnType<typeof defineCampaignWave>;
export type CampaignWave = InstanceType<CampaignWaveModel>;
