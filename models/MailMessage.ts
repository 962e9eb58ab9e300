// An email waiting for the mail transport (owner notices such as a paused webhook endpoint).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineMailMessage(sequelize: Sequelize) {
  class MailMessage extends Model<InferAttributes<MailMessage>, InferCreationAttributes<MailMessage>> {
    declare id: CreationOptional<number>;
    declare account_id: number | null;
    declare kind: string;
    declare recipient: string;
    declare subject: string;
    declare text_body: string;
    declare sent_at: CreationOptional<Date | null>;
    declare created_at: CreationOptional<Date>;
  }
  MailMessage.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: true },
      kind: { type: DataTypes.STRING(40), allowNull: false },
      recipient: { type: DataTypes.STRING(254), allowNull: false },
      subject: { type: DataTypes.STRING(500), allowNull: false },
      text_body: { type: DataTypes.TEXT, allowNull: false },
      sent_at: { type: DataTypes.DATE(3), allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'mail_queue', modelName: 'MailMessage', updatedAt: false },
  );
  return MailMessage;
}

export type MailMessageModel = ReturnType<typeof defineMailMessage>;
export type MailMessage = InstanceType<MailMessageModel>;
