// A user's place in a live account (its sandbox twin has the same people) and the role they hold there.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export const ROLES = ['owner', 'admin', 'designer', 'sender', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function defineMembership(sequelize: Sequelize) {
  class Membership extends Model<InferAttributes<Membership>, InferCreationAttributes<Membership>> {
    declare id: CreationOptional<number>;
    /** A live account, never a sandbox twin. */
    declare account_id: number;
    declare user_id: number;
    declare role: Role;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Membership.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      user_id: { type: DataTypes.INTEGER, allowNull: false },
      role: { type: DataTypes.STRING(16), allowNull: false },
      ...timestamps(),
    },
    { sequelize, tableName: 'memberships', modelName: 'Membership' },
  );
  return Membership;
}

export type MembershipModel = ReturnType<typeof defineMembership>;
export type Membership = InstanceType<MembershipModel>;
