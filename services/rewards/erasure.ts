// Erasure of a member (the directory's eraseMember reaches it through ctx.hooks, in its transaction): the orders
// made for it, by its directory id or its address, lose the recipient's name and address, and their claim pages
// stop answering (the token hash is dropped and the order voided). The order itself stays: spend, inventory and
// analytics count it.
import type { ServiceContext } from '../context.ts';
import { fn, col, Op, where, type Transaction } from 'sequelize';

export async function eraseGiftRecipient(ctx: Pick<ServiceContext, 'models'>, accountId: number, member: { id: number; email: string }, transaction: Transaction): Promise<number> {
  const { models } = ctx;
  const [count] = await models.GiftOrder.update(
    { recipient_name: null, recipient_email: null, claim_token_hash: null, voided: true },
    {
      where: {
        account_id: accountId,
        // Addresses are compared in lower case: an order to a widget send's typed address is the member's too.
        [Op.or]: [{ member_id: member.id }, where(fn('LOWER', col('recipient_email')), member.email.toLowerCase())],
      },
      transaction,
    },
  );
  return count;
}
