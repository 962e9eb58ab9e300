// Small send-side tables: idempotency keys, monthly quota counters, suppressions, suspended accounts, mail_sink.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineSendingRules(sequelize: Sequelize) {
  class IdempotencyKey extends Model<InferAttributes<IdempotencyKey>, InferCreationAttributes<IdempotencyKey>> {
    declare account_id: number;
    declare idem_key: string;
    declare request_hash: string;
    declare send_id: number;
    declare created_at: Date;
  }
  IdempotencyKey.init(
    {
      account_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      idem_key: { type: DataTypes.STRING(255).BINARY, allowNull: false, primaryKey: true },
      request_hash: { type: DataTypes.CHAR(64).BINARY, allowNull: false },
      send_id: { type: DataTypes.INTEGER, allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'idempotency_keys', modelName: 'IdempotencyKey', timestamps: false },
  );

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

  class Suppression extends Model<InferAttributes<Suppression>, InferCreationAttributes<Suppression>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare kind: 'email' | 'domain';
    declare value: string;
    declare created_at: Date;
  }
  Suppression.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(10), allowNull: false },
      value: { type: DataTypes.STRING(254).BINARY, allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'suppressions', modelName: 'Suppression', timestamps: false },
  );

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

  return { IdempotencyKey, QuotaUsage, Suppression, SendSuspension, MailSinkMessage };
}
