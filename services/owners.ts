// The owner of an account: the user `accounts.owner_user_id` names on the live account (a sandbox twin's owner is its
// live account's), for notices and for whoever else needs the account's one owner.
import type { Transaction } from 'sequelize';
import type { User } from '../models/User.ts';
import type { ServiceContext } from './context.ts';

export async function accountOwner(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction?: Transaction): Promise<User | null> {
  const { models } = ctx;
  const options = transaction ? { transaction } : {};
  const account = await models.Account.findByPk(accountId, options);
  if (!account) return null;
  const live = account.live_account_id === null ? account : await models.Account.findByPk(account.live_account_id, options);
  return live?.owner_user_id ? models.User.findByPk(live.owner_user_id, options) : null;
}
