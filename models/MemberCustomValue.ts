// A member's value of one custom date field.
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineMemberCustomValue(sequelize: Sequelize) {
  class MemberCustomValue extends Model<InferAttributes<MemberCustomValue>, InferCreationAttributes<MemberCustomValue>> {
    declare member_id: number;
    declare field_id: number;
    declare value: string;
  }
  MemberCustomValue.init(
    {
      member_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      field_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      value: { type: DataTypes.DATEONLY, allowNull: false },
    },
    { sequelize, tableName: 'member_custom_values', modelName: 'MemberCustomValue', timestamps: false },
  );
  return MemberCustomValue;
}

export type MemberCustomValueModel = ReturnType<typeof defineMemberCustomValue>;
export type MemberCustomValue = InstanceType<MemberCustomValueModel>;
