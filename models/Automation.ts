// An automation: cards sent on members' occasions (birthdays, anniversaries, holidays, onboarding...) by a
// Temporal Schedule. Its configuration is kept as JSON text; services/automations/config.ts reads and writes it.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export const EVENT_TYPES = ['birthday', 'anniversary', 'holiday', 'fixed_date', 'custom_field', 'rule_based', 'onboarding'] as const;
export type AutomationEventType = (typeof EVENT_TYPES)[number];

export function defineAutomation(sequelize: Sequelize) {
  class Automation extends Model<InferAttributes<Automation>, InferCreationAttributes<Automation>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare automation_name: string;
    declare event_type: AutomationEventType;
    declare enabled: CreationOptional<boolean>;
    declare from_name: string | null;
    declare from_email: string | null;
    declare locale: CreationOptional<string>;
    /** JSON text. */
    declare trigger_config: string;
    declare timing_config: string | null;
    declare random_messages: string | null;
    declare selected_member_ids: string | null;
    declare selected_department_ids: string | null;
    /** JSON text of the rules without their eCards (those are automation_ecards rows, role milestone). */
    declare milestone_rules: string | null;
    declare notify_days_before: CreationOptional<number>;
    declare notification_segment: string | null;
    declare gift_card_enabled: CreationOptional<boolean>;
    declare gift_card: string | null;
    /** YYYY-MM-DD in the automation's zone: send dates up to it are handled. */
    declare watermark: CreationOptional<string | null>;
    declare quota_notice_on: CreationOptional<string | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Automation.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      automation_name: { type: DataTypes.STRING(200), allowNull: false },
      event_type: { type: DataTypes.STRING(16), allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      from_name: { type: DataTypes.STRING(200), allowNull: true },
      from_email: { type: DataTypes.STRING(254), allowNull: true },
      locale: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'en' },
      trigger_config: { type: DataTypes.TEXT, allowNull: false },
      timing_config: { type: DataTypes.TEXT, allowNull: true },
      random_messages: { type: DataTypes.TEXT, allowNull: true },
      selected_member_ids: { type: DataTypes.TEXT, allowNull: true },
      selected_department_ids: { type: DataTypes.TEXT, allowNull: true },
      milestone_rules: { type: DataTypes.TEXT, allowNull: true },
      notify_days_before: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      notification_segment: { type: DataTypes.TEXT, allowNull: true },
      gift_card_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      gift_card: { type: DataTypes.TEXT, allowNull: true },
      watermark: { type: DataTypes.CHAR(10), allowNull: true },
      quota_notice_on: { type: DataTypes.CHAR(10), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'automations', modelName: 'Automation' },
  );
  return Automation;
}

export type AutomationModel = ReturnType<typeof defineAutomation>;
export type Automation = InstanceType<AutomationModel>;
