// A department of an account, created by name the first time a member names it.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export function defineDepartment(sequelize: Sequelize) {
  class Department extends Model<InferAttributes<Department>, InferCreationAttributes<Department>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare name: string;
    declare name_key: string;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Department.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: false },
      name_key: { type: DataTypes.STRING(100).BINARY, allowNull: false },
      ...timestamps(),
    },
    { sequelize, tableName: 'departments', modelName: 'Department' },
  );
  return Department;
}

export type DepartmentModel = ReturnType<typeof defineDepartment>;
export type Department = InstanceType<DepartmentModel>;
