// Handing out manual codes: in the recipient's claim transaction, the pool's free codes are locked past any other
// transaction's (MySQL: SELECT … FOR UPDATE SKIP LOCKED; SQLite: the IMMEDIATE transaction is the one writer),
// then given by one conditional UPDATE (`order_id IS NULL`; UNIQUE(order_id) is the last guard), so no code is
// ever given twice. A refunded gift's code goes back.
import { QueryTypes, type Transaction } from 'sequelize';
import type { Models } from '../../models/index.ts';
import type { ServiceContext } from '../context.ts';

const ids = (list: readonly number[]) => list.map((n) => Number(n)).join(', ');

/** Gives one free code of the pool to each order, in order; returns the orders that got one. */
export async function assignCodes(
  ctx: Pick<ServiceContext, 'models' | 'now'>,
  accountId: number,
  pool: { brand: string; denomination_cents: number },
  orderIds: readonly number[],
  transaction: Transaction,
): Promise<number[]> {
  const { models } = ctx;
  if (orderIds.length === 0) return [];
  const mysql = models.sequelize.getDialect() === 'mysql';
  const free = await models.sequelize.query<{ id: number }>(
    `SELECT id FROM gift_codes WHERE account_id = :accountId AND brand = :brand AND denomination_cents = :cents AND order_id IS NULL
       AND (expires_on IS NULL OR expires_on > :today) ORDER BY id LIMIT :n${mysql ? ' FOR UPDATE SKIP LOCKED' : ''}`,
    {
      replacements: { accountId, brand: pool.brand, cents: pool.denomination_cents, today: ctx.now().toISOString().slice(0, 10), n: orderIds.length },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (free.length === 0) return [];
  const pairs = free.map((code, i) => ({ codeId: Number(code.id), orderId: orderIds[i]! }));
  // Numbers only in the CASE: one statement gives every code its order.
  await models.sequelize.query(
    `UPDATE gift_codes SET order_id = CASE id ${pairs.map((p) => `WHEN ${p.codeId} THEN ${p.orderId}`).join(' ')} END, assigned_at = :now, updated_at = :now
       WHERE id IN (${ids(pairs.map((p) => p.codeId))}) AND order_id IS NULL`,
    { replacements: { now: ctx.now() }, type: QueryTypes.UPDATE, transaction },
  );
  const given = await models.GiftCode.findAll({ attributes: ['order_id'], where: { id: pairs.map((p) => p.codeId), account_id: accountId }, raw: true, transaction });
  const mine = new Set(orderIds);
  return given.flatMap((g) => (g.order_id !== null && mine.has(g.order_id) ? [g.order_id] : []));
}

/** A canceled gift's code is free again (only if it is still that order's). */
export async function returnCode(models: Models, codeId: number, orderId: number, transaction?: Transaction): Promise<void> {
  await models.GiftCode.update({ order_id: null, assigned_at: null }, { where: { id: codeId, order_id: orderId }, ...(transaction ? { transaction } : {}) });
}
