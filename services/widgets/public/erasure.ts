// Erasure of an address from the public widget's own tables (a member's erasure, or a stranger's through
// erase-address): its verification rows go. Addresses are stored lower-cased.
import type { ServiceContext } from '../../context.ts';
import type { Transaction } from 'sequelize';

export async function eraseVerifications(ctx: Pick<ServiceContext, 'models'>, accountId: number, email: string, transaction: Transaction): Promise<number> {
  const { models } = ctx;
  return models.WidgetVerification.destroy({ where: { account_id: accountId, email: email.trim().toLowerCase() }, transaction });
}
