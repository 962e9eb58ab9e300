// Defines every model on one Sequelize instance (so two app instances in one process stay apart).
import type { Sequelize } from 'sequelize';
import { defineAccount } from './Account.ts';
import { defineApiKey } from './ApiKey.ts';
import { defineOwner } from './Owner.ts';

export function createModels(sequelize: Sequelize) {
  const Account = defineAccount(sequelize);
  const Owner = defineOwner(sequelize);
  const ApiKey = defineApiKey(sequelize);
  Account.hasMany(ApiKey, { foreignKey: 'account_id' });
  Account.hasMany(Owner, { foreignKey: 'account_id' });
  ApiKey.belongsTo(Account, { foreignKey: 'account_id' });
  Owner.belongsTo(Account, { foreignKey: 'account_id' });
  return { sequelize, Account, Owner, ApiKey };
}

export type Models = ReturnType<typeof createModels>;
