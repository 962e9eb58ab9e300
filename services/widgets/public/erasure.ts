// Erasure of an address from the public widget's own tables (a member's erasure, or a stranger's through
// erase-address): its verification rows go. Addresses are stored lower-cased.
import type { Transaction } from 'sequelize';
import type { Models } from '../../../models/index.ts';

export async function eraseVerifications(models: Models, accountId: number, email: string, transaction: Transaction): Promise<number> {
  return models.WidgetVerification.destroy({ where: { account_id: accountId, email: email.trim().toLowerCase() }, transaction });
}
