// Which departments a member belongs to (a set).
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineMemberDepartment(sequelize: Sequelize) {
  class MemberDepartment extends Model<InferAttributes<MemberDepartment>, InferCreationAttributes<MemberDepartment>> {
    declare member_id: number;
    declare department_id: number;
  }
  MemberDepartment.init(
    {
      member_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      department_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
    },
    { sequelize, tableName: 'member_departments', modelName: 'MemberDepartment', timestamps: false },
  );
  return MemberDepartment;
}

export type MemberDepartmentModel = ReturnType<typeof defineMemberDepartment>;
export type MemberDepartment = InstanceType<MemberDepartmentModel>;
