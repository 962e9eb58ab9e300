// An email the mail transport stored instead of sending it (mail_sink): sandbox emails and the sink transport.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineMailSinkMessage(sequelize: Sequelize) {
  class MailSinkMessage extends Model<InferAttributes<MailSinkMessage>, InferCreationAttributes<MailSinkMessage>> {
    declare id: CreationOptional<number>;
    declare account_id: number | null;
    declare message_id: string;
    declare sender: string;
    declare recipient: string;
    declare reply_to: string | null;
    declare subject: string;
    declare text_body: string;
    declare html_body: string | null;
    declare created_at: Date;
  }
  MailSinkMessage.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: true },
      message_id: { type: DataTypes.STRING(250), allowNull: false },
      sender: { type: DataTypes.STRING(500), allowNull: false },
      recipient: { type: DataTypes.STRING(254), allowNull: false },
      reply_to: { type: DataTypes.STRING(254), allowNull: true },
      subject: { type: DataTypes.STRING(1000), allowNull: false },
      text_body: { type: DataTypes.TEXT, allowNull: false },
      html_body: { type: DataTypes.TEXT, allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'mail_sink', modelName: 'MailSinkMessage', timestamps: false },
  );
  return MailSinkMessage;
}

export type MailSinkMessageModel = ReturnType<typeof defineMailSinkMessage>;
export type MailSinkMessage = InstanceType<MailSinkMessageModel>;
