// A custom date field an account defines for its members (work anniversaries of its own, visa dates...).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export function defineCustomField(sequelize: Sequelize) {
  class CustomField extends Model<InferAttributes<CustomField>, InferCreationAttributes<CustomField>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare field_key: string;
    declare label: string;
    declare field_type: CreationOptional<'date'>;
    declare required: CreationOptional<boolean>;
    declare active: CreationOptional<boolean>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  CustomField.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      field_key: { type: DataTypes.STRING(64).BINARY, allowNull: false },
      label: { type: DataTypes.STRING(200), allowNull: false },
      field_type: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'date' },
      required: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'custom_fields', modelName: 'CustomField' },
  );
  return CustomField;
}

export type CustomFieldModel = ReturnType<typeof defineCustomField>;
export type CustomField = InstanceType<CustomFieldModel>;
