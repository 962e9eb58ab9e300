// The steps a bulk batch (a campaign's, an automation firing's) shares around prepareBulkSends: which addresses
// are suppressed, delivering the prepared sends with their unsubscribe headers, and reading back how each send
// ended so the caller's rows take that state.
import type { Transaction } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { OUTCOME_UNKNOWN } from '../sends/delivery/delivery.ts';
import { suppressionHash } from '../sends/accept/rules.ts';
import { buyPendingGifts } from '../rewards/provider-buys.ts';
import { settleGiftOrders } from '../rewards/settle.ts';
import { announceMarked } from '../sends/delivery/outcome-marks.ts';
import { deliverBulk } from './deliver.ts';

// The sink is a table, not a pool of connections: larger micro-batches.
const SINK_MICRO_BATCH = 100;
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** The emails (lower case) whose address or domain the account suppressed. */
export async function suppressedEmails(ctx: Pick<ServiceContext, 'models'>, accountId: number, emails: readonly string[], transaction?: Transaction): Promise<Set<string>> {
  const { models } = ctx;
  const lower = emails.map((e) => e.toLowerCase());
  if (lower.length === 0) return new Set();
  // An erased address is suppressed by its hash (services/sends/accept/rules.ts).
  const rows = await models.Suppression.findAll({ where: { account_id: accountId, value: [...new Set([...lower, ...lower.map(suppressionHash), ...lower.map(domainOf)])] }, ...(transaction ? { transaction } : {}) });
  const blocked = new Set(rows.map((s) => s.value));
  return new Set(lower.filter((e) => blocked.has(e) || blocked.has(suppressionHash(e)) || blocked.has(domainOf(e))));
}

/** How many emails a micro-batch claims: the SMTP pool's size, or more for the sink. */
async function microBatchSize(ctx: ServiceContext, accountId: number): Promise<number> {
  const sandbox = (await ctx.models.Account.findByPk(accountId))?.mode === 'sandbox';
  return sandbox || ctx.config.mail.transport === 'sink' ? SINK_MICRO_BATCH : ctx.config.mail.poolSize;
}

/** The extra headers of each address's email, made for a batch's addresses (the caller's List-Unsubscribe links). */
export type HeadersFor = (emails: string[]) => Promise<(email: string) => Record<string, string>>;

/** Emails the prepared sends (those not claimed yet), each with the headers its caller gives it (List-Unsubscribe). */
export async function deliverPrepared(
  ctx: ServiceContext,
  accountId: number,
  sendPks: number[],
  run: { lastTry: boolean; heartbeat: () => void; headersFor: HeadersFor },
): Promise<void> {
  const { models } = ctx;
  if (sendPks.length === 0) return;
  // The addresses the sends were made for (a member's as it was at prepare).
  const addresses = await models.SendRecipient.findAll({ attributes: ['recipient_email'], where: { send_id: sendPks }, raw: true });
  const headers = await run.headersFor(addresses.flatMap((r) => (r.recipient_email ? [r.recipient_email] : [])));
  // Gifts: provider orders bought before any email (a decline fails its recipient); after the delivery, gifts
  // whose email failed are refunded.
  const gifts = (await models.GiftOrder.count({ where: { send_id: sendPks } })) > 0;
  if (gifts) await buyPendingGifts(ctx, sendPks, run.heartbeat);
  try {
    await deliverBulk(ctx, accountId, sendPks, {
      microBatch: await microBatchSize(ctx, accountId),
      lastTry: run.lastTry,
      headers,
      heartbeat: run.heartbeat,
      gifts,
    });
  } finally {
    if (gifts) await settleGiftOrders(ctx, sendPks);
    // The batch's outcome events: its recipients' marks, in deliveries of up to 100 (also after a try that threw).
    await announceMarked(ctx, sendPks);
  }
}

export type SettledState = 'sent' | 'failed' | 'unknown';

/**
 * The rows (a caller's, each linked to its send) whose send finished take its state: `set` updates the caller's
 * rows still pending and answers how many changed. Returns how many became `failed` (their quota goes back).
 */
export async function settleFromSends(
  ctx: Pick<ServiceContext, 'models'>,
  open: ReadonlyArray<{ id: number; send_id: number }>,
  set: (ids: number[], state: SettledState, reason: string | null) => Promise<number>,
): Promise<number> {
  const { models } = ctx;
  if (open.length === 0) return 0;
  const finished = await models.SendRecipient.findAll({ attributes: ['send_id', 'status', 'error'], where: { send_id: open.map((r) => r.send_id), status: ['sent', 'failed'] }, raw: true });
  const bySend = new Map(open.map((r) => [r.send_id, r.id]));
  const rowsOf = (pick: (f: (typeof finished)[number]) => boolean) => finished.filter(pick).map((f) => bySend.get(f.send_id)!);
  if (rowsOf((f) => f.status === 'sent').length) await set(rowsOf((f) => f.status === 'sent'), 'sent', null);
  const isUnknown = (f: (typeof finished)[number]) => f.status === 'failed' && Boolean(f.error?.startsWith(OUTCOME_UNKNOWN));
  if (rowsOf(isUnknown).length) await set(rowsOf(isUnknown), 'unknown', OUTCOME_UNKNOWN);
  const byReason = new Map<string, number[]>();
  for (const f of finished.filter((row) => row.status === 'failed' && !isUnknown(row))) {
    byReason.set(f.error ?? 'failed', [...(byReason.get(f.error ?? 'failed') ?? []), bySend.get(f.send_id)!]);
  }
  let failed = 0;
  for (const [reason, ids] of byReason) failed += await set(ids, 'failed', reason);
  return failed;
}
