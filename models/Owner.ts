// The person who owns an account and signs in to its console.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export function defineOwner(sequelize: Sequelize) {
  class Owner extends Model<InferAttributes<Owner>, InferCreationAttributes<Owner>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare email: string;
    declare password_hash: string | null;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Owner.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: false },
      password_hash: { type: DataTypes.STRING(255), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'owners', modelName: 'Owner' },
  );
  return Owner;
}

export type OwnerModel = ReturnType<typeof defineOwner>;
export type Owner = InstanceType<OwnerModel>;
