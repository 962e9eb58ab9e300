// An address or domain an account never sends to (its suppression list and blocked domains).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineSuppression(sequelize: Sequelize) {
  class Suppression extends Model<InferAttributes<Suppression>, InferCreationAttributes<Suppression>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare kind: 'email' | 'domain';
    declare value: string;
    /** Why the service made it (`hard bounce 5.1.1: …`, `complaint: abuse`, `unsubscribed`); null: the account's own. */
    declare reason: CreationOptional<string | null>;
    declare created_at: Date;
  }
  Suppression.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(10), allowNull: false },
      value: { type: DataTypes.STRING(254).BINARY, allowNull: false },
      reason: { type: DataTypes.STRING(300), allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'suppressions', modelName: 'Suppression', timestamps: false },
  );
  return Suppression;
}

export type SuppressionModel = ReturnType<typeof defineSuppression>;
export type Suppression = InstanceType<SuppressionModel>;
