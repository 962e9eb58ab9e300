// Delivery outcome events (ecard_delivered, ecard_failed), gathered: one path for every send. The write that
// finishes recipients also marks them with the event still to announce (`announce_event`, only when an endpoint of
// the account takes that type), so the mark is part of the transition's own write and neither exists without the
// other: a bulk delivery's UPDATE per micro-batch (the SMTP pool's size, 5 by default: an event per micro-batch would
// make many deliveries of a few recipients), a single send's end. The end of each bulk batch (and a campaign's
// finish) and a single send's end turn the marks of their sends into events of up to 100 recipients
// (recordOutcomeEvents) and clear them in that transaction; a sweep does it for marks a crash left behind. Each mark
// is cleared only by the transaction that wrote its event, under the account's lock, so a recipient is announced
// once. An open or a bounce, one recipient's own transition, records its event directly with recordOutcomeEvents.
import { literal, Op } from 'sequelize';
import { accountTransaction } from '../../account-lock.ts';
import type { ServiceContext } from '../../context.ts';
import { recordOutcomeEvents, type OutcomeEventType } from './outcome-events.ts';

/** Marked rows turned into events per transaction (a bulk batch's are 500 by default). */
const ANNOUNCE_PAGE = 1000;
/** How old a mark is before the sweep takes it: a running batch announces its own marks at its end. */
export const MARK_GRACE_MS = 60_000;

// One account's marked rows among `ids` become events and lose their marks, in one account-locked transaction (the
// lock also serializes two announcers of the same rows: the second finds the marks gone).
async function announceRows(ctx: ServiceContext, accountId: number, ids: number[]): Promise<number> {
  return accountTransaction(ctx, accountId, async (transaction) => {
    const rows = await ctx.models.SendRecipient.findAll({ where: { id: ids, announce_event: { [Op.ne]: null } }, order: [['id', 'ASC']], transaction });
    if (rows.length === 0) return 0;
    const sends = new Map((await ctx.models.Send.findAll({ where: { id: [...new Set(rows.map((r) => r.send_id))] }, transaction })).map((s) => [s.id, s]));
    for (const type of new Set(rows.map((r) => r.announce_event as OutcomeEventType))) {
      const items = rows.filter((r) => r.announce_event === type).map((recipient) => ({ send: sends.get(recipient.send_id)!, recipient }));
      // Written only if an endpoint still takes the type; the marks go either way.
      await recordOutcomeEvents(ctx, type, items, transaction);
    }
    await ctx.models.SendRecipient.update({ announce_event: null }, { where: { id: rows.map((r) => r.id) }, transaction });
    return rows.length;
  });
}

// Marked rows (id, send) grouped by account, each account's announced a page at a time.
async function announceByAccount(ctx: ServiceContext, marked: ReadonlyArray<{ id: number; send_id: number }>): Promise<number> {
  if (marked.length === 0) return 0;
  const accountOf = new Map(
    (await ctx.models.Send.findAll({ attributes: ['id', 'account_id'], where: { id: [...new Set(marked.map((m) => m.send_id))] }, raw: true })).map((s) => [s.id, s.account_id]),
  );
  const byAccount = new Map<number, number[]>();
  for (const m of marked) {
    const account = accountOf.get(m.send_id)!;
    const ids = byAccount.get(account);
    if (ids) ids.push(m.id);
    else byAccount.set(account, [m.id]);
  }
  let announced = 0;
  for (const [accountId, ids] of byAccount) {
    for (let i = 0; i < ids.length; i += ANNOUNCE_PAGE) announced += await announceRows(ctx, accountId, ids.slice(i, i + ANNOUNCE_PAGE));
  }
  return announced;
}

/** The end of a bulk batch or of a single send: the marked recipients of these sends are announced. */
export async function announceMarked(ctx: ServiceContext, sendPks: readonly number[]): Promise<number> {
  if (sendPks.length === 0) return 0;
  const marked = await ctx.models.SendRecipient.findAll({ attributes: ['id', 'send_id'], where: { send_id: [...sendPks], announce_event: { [Op.ne]: null } }, order: [['id', 'ASC']], raw: true });
  return announceByAccount(ctx, marked);
}

/** A campaign's or automation's marked recipients, all of them (a campaign's finish). */
export async function announceMarkedOf(ctx: ServiceContext, origin: 'campaign' | 'automation', originId: number): Promise<number> {
  // Marked rows are few (the index leads with the mark); the campaign's sends are many, so they are not listed.
  const ofOrigin = literal(`(SELECT s.id FROM sends s WHERE s.origin = ${ctx.models.sequelize.escape(origin)} AND s.origin_id = ${Number(originId)})`);
  const marked = await ctx.models.SendRecipient.findAll({ attributes: ['id', 'send_id'], where: { announce_event: { [Op.ne]: null }, send_id: { [Op.in]: ofOrigin } }, order: [['id', 'ASC']], raw: true });
  return announceByAccount(ctx, marked);
}

/**
 * Background pass: marks older than MARK_GRACE_MS (a batch that crashed between its rows' outcome and its end) are
 * announced; true when a full page was found (more may wait).
 */
export async function sweepOutcomeMarks(ctx: ServiceContext, olderThan: Date = new Date(ctx.now().getTime() - MARK_GRACE_MS)): Promise<boolean> {
  const marked = await ctx.models.SendRecipient.findAll({
    attributes: ['id', 'send_id'],
    where: { announce_event: { [Op.ne]: null }, finished_at: { [Op.lt]: olderThan } },
    order: [['id', 'ASC']],
    limit: ANNOUNCE_PAGE,
    raw: true,
  });
  await announceByAccount(ctx, marked);
  return marked.length === ANNOUNCE_PAGE;
}
