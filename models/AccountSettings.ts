// An account's settings of local time: its default time zone and its quiet hours. No row means the defaults.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { timestamps } from './columns.ts';

export function defineAccountSettings(sequelize: Sequelize) {
  class AccountSettings extends Model<InferAttributes<AccountSettings>, InferCreationAttributes<AccountSettings>> {
    declare account_id: number;
    declare default_timezone: string;
    /** "HH:MM"; both null when the account has no quiet hours. */
    declare quiet_start: string | null;
    declare quiet_end: string | null;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  AccountSettings.init(
    {
      account_id: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
      default_timezone: { type: DataTypes.STRING(64), allowNull: false },
      quiet_start: { type: DataTypes.CHAR(5), allowNull: true },
      quiet_end: { type: DataTypes.CHAR(5), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'account_settings', modelName: 'AccountSettings' },
  );
  return AccountSettings;
}

export type AccountSettingsModel = ReturnType<typeof defineAccountSettings>;
export type AccountSettings = InstanceType<AccountSettingsModel>;
