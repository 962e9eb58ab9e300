// An event written in the transaction of the change it describes; the webhook engine delivers it.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineOutboxEvent(sequelize: Sequelize) {
  class OutboxEvent extends Model<InferAttributes<OutboxEvent>, InferCreationAttributes<OutboxEvent>> {
    declare id: CreationOptional<number>;
    declare event_id: string;
    declare account_id: number;
    declare event_type: string;
    declare source: string;
    declare member_id: number | null;
    /** The serialized body (JSON text, kept byte for byte). */
    declare payload: string;
    declare occurred_at: Date;
    declare redacted_at: CreationOptional<Date | null>;
    declare drained_at: CreationOptional<Date | null>;
    declare redact_after_delivery: CreationOptional<boolean>;
  }
  OutboxEvent.init(
    {
      id: idColumn(),
      event_id: { type: DataTypes.CHAR(36).BINARY, allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      event_type: { type: DataTypes.STRING(64), allowNull: false },
      source: { type: DataTypes.STRING(20), allowNull: false },
      member_id: { type: DataTypes.INTEGER, allowNull: true },
      payload: { type: DataTypes.TEXT, allowNull: false },
      occurred_at: { type: DataTypes.DATE(3), allowNull: false },
      redacted_at: { type: DataTypes.DATE(3), allowNull: true },
      drained_at: { type: DataTypes.DATE(3), allowNull: true },
      redact_after_delivery: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    },
    { sequelize, tableName: 'event_outbox', modelName: 'OutboxEvent', timestamps: false },
  );
  return OutboxEvent;
}

export type OutboxEventModel = ReturnType<typeof defineOutboxEvent>;
export type OutboxEvent = InstanceType<OutboxEventModel>;
