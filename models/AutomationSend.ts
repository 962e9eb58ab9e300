// One card (or digest) of an automation for one member and occurrence: inserted once by the find-due step
// (unique on automation, member, occurrence key), then claimed, sent by the bulk sender, and settled.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export const AUTOMATION_SEND_STATUSES = ['pending', 'sent', 'failed', 'unknown', 'skipped', 'missed'] as const;
export type AutomationSendStatus = (typeof AUTOMATION_SEND_STATUSES)[number];

export function defineAutomationSend(sequelize: Sequelize) {
  class AutomationSend extends Model<InferAttributes<AutomationSend>, InferCreationAttributes<AutomationSend>> {
    declare id: CreationOptional<number>;
    declare automation_id: number;
    declare account_id: number;
    declare member_id: number;
    declare occurrence_key: string;
    declare kind: CreationOptional<'card' | 'digest'>;
    declare status: CreationOptional<AutomationSendStatus>;
    declare reason: CreationOptional<string | null>;
    declare firing_date: string;
    declare occasion_date: CreationOptional<string | null>;
    declare send_date: CreationOptional<string | null>;
    declare years: CreationOptional<number | null>;
    declare milestone_index: CreationOptional<number | null>;
    declare ecard_id: CreationOptional<number | null>;
    declare message: CreationOptional<string | null>;
    declare celebrants: CreationOptional<string | null>;
    declare quota_month: CreationOptional<string | null>;
    declare send_id: CreationOptional<number | null>;
    /** The zone whose firing made the row (recipient_timezone), null for the automation's one Schedule. */
    declare zone: CreationOptional<string | null>;
    /** When it may go out: the firing's moment after the recipient's quiet hours (null on older rows: at once). */
    declare send_at: CreationOptional<Date | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  AutomationSend.init(
    {
      id: idColumn(),
      automation_id: { type: DataTypes.INTEGER, allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      member_id: { type: DataTypes.INTEGER, allowNull: false },
      occurrence_key: { type: DataTypes.STRING(40), allowNull: false },
      kind: { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'card' },
      status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      reason: { type: DataTypes.STRING(1000), allowNull: true },
      firing_date: { type: DataTypes.CHAR(10), allowNull: false },
      occasion_date: { type: DataTypes.CHAR(10), allowNull: true },
      send_date: { type: DataTypes.CHAR(10), allowNull: true },
      years: { type: DataTypes.INTEGER, allowNull: true },
      milestone_index: { type: DataTypes.INTEGER, allowNull: true },
      ecard_id: { type: DataTypes.INTEGER, allowNull: true },
      message: { type: DataTypes.TEXT, allowNull: true },
      celebrants: { type: DataTypes.TEXT, allowNull: true },
      quota_month: { type: DataTypes.CHAR(7), allowNull: true },
      send_id: { type: DataTypes.INTEGER, allowNull: true },
      zone: { type: DataTypes.STRING(64), allowNull: true },
      send_at: { type: DataTypes.DATE(3), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'automation_sends', modelName: 'AutomationSend' },
  );
  return AutomationSend;
}

export type AutomationSendModel = ReturnType<typeof defineAutomationSend>;
export type AutomationSend = InstanceType<AutomationSendModel>;
