// An account whose sending is suspended (anti-spam): every send of it is refused while the row exists.
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineSendSuspension(sequelize: Sequelize) {
  class SendSuspension extends Model<InferAttributes<SendSuspension>, InferCreationAttributes<SendSuspension>> {
    declare account_id: number;
    declare created_at: Date;
  }
  SendSuspension.init(
    {
      account_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'send_suspensions', modelName: 'SendSuspension', timestamps: false },
  );
  return SendSuspension;
}

export type SendSuspensionModel = ReturnType<typeof defineSendSuspension>;
export type SendSuspension = InstanceType<SendSuspensionModel>;
