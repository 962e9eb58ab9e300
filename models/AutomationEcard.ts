// One eCard an automation refers to: selected (its cards), a milestone rule's, or a notification type's.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export const NOTIFICATION_TYPES = ['manager', 'department', 'segment'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type AutomationEcardRole = 'selected' | 'milestone' | NotificationType;

export function defineAutomationEcard(sequelize: Sequelize) {
  class AutomationEcard extends Model<InferAttributes<AutomationEcard>, InferCreationAttributes<AutomationEcard>> {
    declare id: CreationOptional<number>;
    declare automation_id: number;
    declare account_id: number;
    declare ecard_id: number;
    declare role: AutomationEcardRole;
    declare milestone_index: number | null;
    declare position: number;
  }
  AutomationEcard.init(
    {
      id: idColumn(),
      automation_id: { type: DataTypes.INTEGER, allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      ecard_id: { type: DataTypes.INTEGER, allowNull: false },
      role: { type: DataTypes.STRING(12), allowNull: false },
      milestone_index: { type: DataTypes.INTEGER, allowNull: true },
      position: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { sequelize, tableName: 'automation_ecards', modelName: 'AutomationEcard', timestamps: false },
  );
  return AutomationEcard;
}

export type AutomationEcardModel = ReturnType<typeof defineAutomationEcard>;
export type AutomationEcard = InstanceType<AutomationEcardModel>;
