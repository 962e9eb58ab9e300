// A gift's spend reserved on what carries it (a send-ecard send for its recipients, a campaign for all of its)
// until each recipient's order takes its share; what no order took is released when the holder ends.
import type { ServiceContext } from '../context.ts';
import { QueryTypes, type Transaction } from 'sequelize';
import { affectedRows } from '../../lib/db.ts';
import { releaseHeldCodes } from './inventory.ts';
import { releaseSpend, reserveSpend } from './spend.ts';

export type Holder = 'sends' | 'campaigns';

/** Moves `cents` of the holder's reservation to orders (the counter keeps it); beyond the reservation, recorded. */
export async function takeFromReservation(ctx: Pick<ServiceContext, 'models'>, holder: Holder, holderId: number, accountId: number, cents: number, day: string, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  if (cents <= 0) return;
  const [row] = await models.sequelize.query<{ gift_reserved_cents: number | string }>(`SELECT gift_reserved_cents FROM ${holder} WHERE id = :holderId`, {
    replacements: { holderId },
    type: QueryTypes.SELECT,
    transaction,
  });
  const take = Math.min(cents, Number(row?.gift_reserved_cents ?? 0));
  if (take > 0) {
    await models.sequelize.query(`UPDATE ${holder} SET gift_reserved_cents = gift_reserved_cents - :take WHERE id = :holderId AND gift_reserved_cents >= :take`, {
      replacements: { holderId, take },
      type: QueryTypes.UPDATE,
      transaction,
    });
  }
  // Orders past what was reserved (recipients added after the reservation) still count.
  if (cents > take) await reserveSpend(ctx, accountId, { cents: cents - take, day, enforce: false }, transaction);
}

/** Releases whatever the holder still reserves (it ended: sent, canceled, unscheduled): spend, and a send's held codes. */
export async function releaseReservation(ctx: Pick<ServiceContext, 'models'>, holder: Holder, holderId: number, accountId: number, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  const options = transaction ? { transaction } : {};
  if (holder === 'sends') await releaseHeldCodes(ctx, holderId, transaction);
  const [row] = await models.sequelize.query<{ gift_reserved_cents: number | string; gift_spend_day: string | null }>(
    `SELECT gift_reserved_cents, gift_spend_day FROM ${holder} WHERE id = :holderId`,
    { replacements: { holderId }, type: QueryTypes.SELECT, ...options },
  );
  const cents = Number(row?.gift_reserved_cents ?? 0);
  if (!row || cents <= 0 || !row.gift_spend_day) return;
  // Conditional on the amount read: of two releases racing, one gives it back.
  const [, changed] = await models.sequelize.query(`UPDATE ${holder} SET gift_reserved_cents = 0 WHERE id = :holderId AND gift_reserved_cents = :cents`, {
    replacements: { holderId, cents },
    type: QueryTypes.UPDATE,
    ...options,
  });
  if (affectedRows(changed) === 1) await releaseSpend(ctx, accountId, { cents, day: row.gift_spend_day }, transaction);
}
