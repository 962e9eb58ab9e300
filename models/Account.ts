// An account: a tenant. Every live account has one sandbox account linked by live_account_id.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

import type { Plan } from '../lib/plans.ts';

export { PLANS, type Plan } from '../lib/plans.ts';
export type AccountMode = 'live' | 'sandbox';

export function defineAccount(sequelize: Sequelize) {
  class Account extends Model<InferAttributes<Account>, InferCreationAttributes<Account>> {
    declare id: CreationOptional<number>;
    declare name: string;
    declare plan: Plan;
    declare mode: AccountMode;
    declare live_account_id: number | null;
    /** The one owner (a user), on a live account; null on a sandbox twin, whose owner is its live account's. */
    declare owner_user_id: CreationOptional<number | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Account.init(
    {
      id: idColumn(),
      name: { type: DataTypes.STRING(200), allowNull: false },
      plan: { type: DataTypes.STRING(20), allowNull: false },
      mode: { type: DataTypes.STRING(10), allowNull: false },
      live_account_id: { type: DataTypes.INTEGER, allowNull: true },
      owner_user_id: { type: DataTypes.INTEGER, allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'accounts', modelName: 'Account' },
  );
  return Account;
}

export type AccountModel = ReturnType<typeof defineAccount>;
export type Account = InstanceType<AccountModel>;
