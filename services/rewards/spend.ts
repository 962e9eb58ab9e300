// The spend counter of an account: one row holding what its current day, week and month used (orders not failed
// or refunded, plus reservations), in cents. A reservation is one conditional UPDATE of that row: it adds the
// amount to every period (a period whose start moved on starts again from 0) only if each enforced rule still
// fits, so two concurrent reservations can never both squeeze under a limit. A release subtracts from the
// periods the reservation was counted in, and only while they are still current.
import type { ServiceContext } from '../context.ts';
import { QueryTypes, type Transaction } from 'sequelize';
import { affectedRows } from '../../lib/db.ts';
import type { SpendPeriod } from '../../models/Gift.ts';
import { periodStarts } from './periods.ts';
import { loadRules } from './settings.ts';

const PERIODS: readonly SpendPeriod[] = ['day', 'week', 'month'];

export interface SpendRefusal {
  /** The first rule the amount does not fit in. */
  period: SpendPeriod;
  limitCents: number;
  remainingCents: number;
}

// The period's use as of `start`: its stored cents when it is the current period, else nothing yet.
const usedAt = (period: SpendPeriod) => `(CASE WHEN ${period}_start = :${period} THEN ${period}_cents ELSE 0 END)`;

/**
 * Reserves `cents` in the periods of the UTC day `day` (enforced: only if every rule still fits; else records
 * it regardless). Returns null when reserved, else the rule that refused (nothing was changed).
 */
export async function reserveSpend(
  ctx: Pick<ServiceContext, 'models'>,
  accountId: number,
  input: { cents: number; day: string; enforce: boolean },
  transaction: Transaction,
): Promise<SpendRefusal | null> {
  const { models } = ctx;
  const cents = Math.round(input.cents);
  if (cents <= 0) return null;
  const starts = periodStarts(input.day);
  const rules = input.enforce ? await loadRules(ctx, accountId, transaction) : [];
  // The row, made on first use. An upsert, not INSERT IGNORE: on MySQL IGNORE takes a shared lock on the existing
  // row, which two concurrent reservations then both try to upgrade for the UPDATE (a deadlock); ON DUPLICATE KEY
  // UPDATE takes the exclusive lock at once, so they wait in turn.
  await models.GiftSpend.bulkCreate([{ account_id: accountId }], { updateOnDuplicate: ['account_id'], transaction });
  const limitOf = new Map(rules.map((r) => [r.period, r.limit_cents]));
  const conditions = PERIODS.filter((p) => limitOf.has(p)).map((p) => `${usedAt(p)} + :cents <= :${p}_limit`);
  // Each period's cents are set before its start moves (MySQL reads assignments left to right).
  const sets = PERIODS.map((p) => `${p}_cents = ${usedAt(p)} + :cents, ${p}_start = :${p}`).join(', ');
  const replacements: Record<string, unknown> = { accountId, cents, ...starts };
  for (const p of PERIODS) if (limitOf.has(p)) replacements[`${p}_limit`] = limitOf.get(p);
  const [, changed] = await models.sequelize.query(
    `UPDATE gift_spend SET ${sets} WHERE account_id = :accountId${conditions.map((c) => ` AND ${c}`).join('')}`,
    { replacements, type: QueryTypes.UPDATE, transaction },
  );
  if (affectedRows(changed) === 1) return null;
  const used = await spendUsed(ctx, accountId, input.day, transaction);
  const refusing = PERIODS.find((p) => limitOf.has(p) && used[p] + cents > limitOf.get(p)!) ?? 'day';
  const limitCents = limitOf.get(refusing) ?? 0;
  return { period: refusing, limitCents, remainingCents: Math.max(0, limitCents - used[refusing]) };
}

/** Gives back `cents` reserved (or spent) on the UTC day `day`, in whichever of its periods are still current. */
export async function releaseSpend(ctx: Pick<ServiceContext, 'models'>, accountId: number, input: { cents: number; day: string }, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  const cents = Math.round(input.cents);
  if (cents <= 0) return;
  const sets = PERIODS.map((p) => `${p}_cents = CASE WHEN ${p}_start = :${p} AND ${p}_cents >= :cents THEN ${p}_cents - :cents WHEN ${p}_start = :${p} THEN 0 ELSE ${p}_cents END`).join(', ');
  await models.sequelize.query(`UPDATE gift_spend SET ${sets} WHERE account_id = :accountId`, {
    replacements: { accountId, cents, ...periodStarts(input.day) },
    type: QueryTypes.UPDATE,
    ...(transaction ? { transaction } : {}),
  });
}

/**
 * What each period holding the UTC day `day` has used so far, in cents. In a transaction the read locks the row
 * (MySQL): it sees what concurrent reservations committed, not the transaction's older snapshot (a refusal's
 * `remaining` is then the counter's current one).
 */
export async function spendUsed(ctx: Pick<ServiceContext, 'models'>, accountId: number, day: string, transaction?: Transaction): Promise<Record<SpendPeriod, number>> {
  const { models } = ctx;
  const row = await models.GiftSpend.findByPk(accountId, transaction ? { transaction, lock: transaction.LOCK.UPDATE } : {});
  const starts = periodStarts(day);
  const used = (p: SpendPeriod) => (row && row[`${p}_start`] === starts[p] ? row[`${p}_cents`] : 0);
  return { day: used('day'), week: used('week'), month: used('month') };
}
