// Handing out manual codes: in the recipient's claim transaction, the pool's free codes are locked past any other
// transaction's (MySQL: SELECT … FOR UPDATE SKIP LOCKED; SQLite: the IMMEDIATE transaction is the one writer),
// then given by one conditional UPDATE (`order_id IS NULL`; UNIQUE(order_id) is the last guard), so no code is
// ever given twice. A send-ecard gift takes its codes earlier, in the accept's transaction: they are held for the
// send (`held_send_id`, the same lock and conditional UPDATE) and its dispatch gives the held ones first. A free code
// has neither an order nor a holder. A refunded gift's code goes back; a canceled or ended send's held codes too.
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { affectedRows } from '../../lib/db.ts';
import type { ServiceContext } from '../context.ts';

const ids = (list: readonly number[]) => list.map((n) => Number(n)).join(', ');

type Pool = { brand: string; denomination_cents: number };

/** Up to `n` free codes of the pool (no order, no holder, not expired), locked past other transactions' on MySQL. */
async function freeCodes(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number, pool: Pool, n: number, transaction: Transaction): Promise<number[]> {
  if (n <= 0) return [];
  const mysql = ctx.models.sequelize.getDialect() === 'mysql';
  const free = await ctx.models.sequelize.query<{ id: number }>(
    `SELECT id FROM gift_codes WHERE account_id = :accountId AND brand = :brand AND denomination_cents = :cents AND order_id IS NULL AND held_send_id IS NULL
       AND (expires_on IS NULL OR expires_on > :today) ORDER BY id LIMIT :n${mysql ? ' FOR UPDATE SKIP LOCKED' : ''}`,
    {
      replacements: { accountId, brand: pool.brand, cents: pool.denomination_cents, today: ctx.now().toISOString().slice(0, 10), n },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return free.map((c) => Number(c.id));
}

/**
 * Accept: holds `count` free codes of the pool for the send, in its transaction; returns how many it could hold (fewer
 * than `count`: the caller refuses the send and the rollback frees them).
 */
export async function holdCodes(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number, pool: Pool, sendPk: number, count: number, transaction: Transaction): Promise<number> {
  const free = await freeCodes(ctx, accountId, pool, count, transaction);
  if (free.length < count) return free.length;
  const [, result] = await ctx.models.sequelize.query(
    `UPDATE gift_codes SET held_send_id = :sendPk, updated_at = :now WHERE id IN (${ids(free)}) AND order_id IS NULL AND held_send_id IS NULL`,
    { replacements: { sendPk: Number(sendPk), now: ctx.now() }, type: QueryTypes.UPDATE, transaction },
  );
  return affectedRows(result);
}

/** The send's held codes go back to the pool (a cancel, or the send ended with some not given). */
export async function releaseHeldCodes(ctx: Pick<ServiceContext, 'models'>, sendPk: number, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  await models.GiftCode.update({ held_send_id: null }, { where: { held_send_id: sendPk, order_id: { [Op.is]: null } }, ...(transaction ? { transaction } : {}) });
}

/**
 * Gives one code of the pool to each order, in order: first the codes `heldBy` (a send) holds, then free ones (a
 * send accepted before codes were held, or a held code that expired meanwhile); returns the orders that got one.
 */
export async function assignCodes(
  ctx: Pick<ServiceContext, 'models' | 'now'>,
  accountId: number,
  pool: Pool,
  orderIds: readonly number[],
  transaction: Transaction,
  heldBy: number | null = null,
): Promise<number[]> {
  const { models } = ctx;
  if (orderIds.length === 0) return [];
  const mysql = models.sequelize.getDialect() === 'mysql';
  const held = heldBy === null
    ? []
    : (
        await models.sequelize.query<{ id: number }>(
          `SELECT id FROM gift_codes WHERE held_send_id = :heldBy AND account_id = :accountId AND order_id IS NULL
             AND (expires_on IS NULL OR expires_on > :today) ORDER BY id LIMIT :n${mysql ? ' FOR UPDATE' : ''}`,
          { replacements: { heldBy: Number(heldBy), accountId, today: ctx.now().toISOString().slice(0, 10), n: orderIds.length }, type: QueryTypes.SELECT, transaction },
        )
      ).map((c) => Number(c.id));
  const codes = [...held, ...(await freeCodes(ctx, accountId, pool, orderIds.length - held.length, transaction))];
  if (codes.length === 0) return [];
  const pairs = codes.map((codeId, i) => ({ codeId, orderId: orderIds[i]! }));
  // Numbers only in the CASE: one statement gives every code its order (a held code is no longer held once given).
  await models.sequelize.query(
    `UPDATE gift_codes SET order_id = CASE id ${pairs.map((p) => `WHEN ${p.codeId} THEN ${Number(p.orderId)}`).join(' ')} END, held_send_id = NULL, assigned_at = :now, updated_at = :now
       WHERE id IN (${ids(pairs.map((p) => p.codeId))}) AND order_id IS NULL AND (held_send_id IS NULL${heldBy === null ? '' : ` OR held_send_id = ${Number(heldBy)}`})`,
    { replacements: { now: ctx.now() }, type: QueryTypes.UPDATE, transaction },
  );
  const given = await models.GiftCode.findAll({ attributes: ['order_id'], where: { id: pairs.map((p) => p.codeId), account_id: accountId }, raw: true, transaction });
  const mine = new Set(orderIds);
  return given.flatMap((g) => (g.order_id !== null && mine.has(g.order_id) ? [g.order_id] : []));
}

/** A canceled gift's code is free again (only if it is still that order's). */
export async function returnCode(ctx: Pick<ServiceContext, 'models'>, codeId: number, orderId: number, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  await models.GiftCode.update({ order_id: null, assigned_at: null }, { where: { id: codeId, order_id: orderId }, ...(transaction ? { transaction } : {}) });
}
