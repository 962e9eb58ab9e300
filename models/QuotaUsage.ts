// An account's monthly sending quota counter: the emails used in one month (YYYY-MM).
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineQuotaUsage(sequelize: Sequelize) {
  class QuotaUsage extends Model<InferAttributes<QuotaUsage>, InferCreationAttributes<QuotaUsage>> {
    declare account_id: number;
    declare month: string;
    declare used: number;
  }
  QuotaUsage.init(
    {
      account_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      month: { type: DataTypes.CHAR(7), allowNull: false, primaryKey: true },
      used: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { sequelize, tableName: 'quota_usage', modelName: 'QuotaUsage', timestamps: false },
  );
  return QuotaUsage;
}

export type QuotaUsageModel = ReturnType<typeof defineQuotaUsage>;
export type QuotaUsage = InstanceType<QuotaUsageModel>;
