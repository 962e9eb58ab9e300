// The bulk sender's second step: emails prepared sends micro-batch by micro-batch. One conditional UPDATE claims a
// micro-batch (a token on its recipients, before SMTP is asked); the emails go out in parallel over the pool; the
// results are one UPDATE per outcome, settled as a single send's email is (services/sends/delivery/settlement.ts). A claimed
// recipient without a result (its try died) becomes `unknown`, never a second email.
import { Op } from 'sequelize';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import type { ServiceContext } from '../context.ts';
import { writeTransaction } from '../../lib/db.ts';
import { subscribedTypes, type OutcomeEventType } from '../sends/delivery/outcome-events.ts';
import { MailError } from '../mail/transport.ts';
import { giftEmailsFor } from '../rewards/hand-off.ts';
import { OUTCOME_UNKNOWN, outgoingMail } from '../sends/delivery/delivery.ts';
import { recipientUrl } from '../sends/card-page/pages.ts';
import { prepareEmails, renderEmail } from '../sends/email/email.ts';
import { loadSnapshots } from '../sends/accept/snapshot.ts';
import { releaseClaims, settlementOf } from '../sends/delivery/settlement.ts';
import { unsubscribeUrlOf } from '../sends/delivery/unsubscribe.ts';

// Callers read the outcomes back from the sends (also after a try that threw).
type BulkOutcome = 'sent' | 'failed' | 'unknown';

export interface DeliverOptions {
  /** Emails in flight at once: the SMTP pool's size (100 with the sink). */
  microBatch: number;
  /** On the last try a temporary SMTP failure is the recipient's failure instead of another retry. */
  lastTry: boolean;
  /** Extra headers of one recipient's email (List-Unsubscribe). */
  headers: (email: string) => Record<string, string>;
  /** Called once per micro-batch (the activity's heartbeat). */
  heartbeat: () => void;
  /** Some sends carry gifts: each email gets its gift block (a fresh claim link) at the hand-off. */
  gifts?: boolean;
}

/** Thrown after the batch when SMTP refused some emails for now: the activity's retry sends those (and only those). */
export class BulkRetry extends MailError {}

// The rows' outcome in one plain transaction: only rows still pending change (a retried try's rows were finished by
// the first). The same UPDATE marks them for their outcome event when an endpoint takes it (`announce`); the batch's
// end announces the marks in deliveries of up to 100 (services/sends/delivery/outcome-marks.ts).
async function finishRows(ctx: ServiceContext, rows: SendRecipient[], outcome: BulkOutcome, error: string | null, announce: ReadonlySet<OutcomeEventType>): Promise<void> {
  if (rows.length === 0) return;
  const type: OutcomeEventType = outcome === 'sent' ? 'ecard_delivered' : 'ecard_failed';
  const ids = rows.map((r) => r.id);
  const sendPks = [...new Set(rows.map((r) => r.send_id))];
  await writeTransaction(ctx.models.sequelize, async (transaction) => {
    await ctx.models.SendRecipient.update(
      { status: outcome === 'sent' ? 'sent' : 'failed', finished_at: ctx.now(), error: error?.slice(0, 1000) ?? null, ...(announce.has(type) ? { announce_event: type } : {}) },
      { where: { id: ids, status: 'pending' }, transaction },
    );
    await ctx.models.Send.update(
      { status: outcome === 'sent' ? 'sent' : 'failed', emails_sent: outcome === 'sent' ? 1 : 0, error: error?.slice(0, 1000) ?? null },
      { where: { id: sendPks, status: 'pending' }, transaction },
    );
  });
}

/** The outcome types an endpoint of the account takes now: read once per micro-batch (a new subscription takes the next). */
const announcedTypes = (ctx: ServiceContext, accountId: number) => subscribedTypes(ctx, accountId, ['ecard_delivered', 'ecard_failed']);

/** Emails the sends' waiting recipients; `accountId` is the sends' account (a bulk batch is one account's). */
export async function deliverBulk(ctx: ServiceContext, accountId: number, sendPks: number[], options: DeliverOptions): Promise<void> {
  const { models } = ctx;
  if (sendPks.length === 0) return;
  // Claimed by a try that stopped before its result: the email may have left, so it is not sent again.
  const orphans = await models.SendRecipient.findAll({ where: { send_id: sendPks, status: 'pending', claimed_at: { [Op.ne]: null } } });
  if (orphans.length) await finishRows(ctx, orphans, 'unknown', OUTCOME_UNKNOWN, await announcedTypes(ctx, accountId));

  const waiting = await models.SendRecipient.findAll({
    attributes: ['id', 'send_id'],
    where: { send_id: sendPks, status: 'pending', claimed_at: { [Op.is]: null } },
    order: [['id', 'ASC']],
    raw: true,
  });
  if (waiting.length === 0) return;
  // The waiting sends and their designs are read once for the batch, not per micro-batch: what an email shows of its
  // send is fixed once it is prepared, and a micro-batch's claim still decides who is sent (three statements and a
  // design's parse fewer per micro-batch: docs/performance.md, "Firings and campaigns: the delivery").
  const waitingSendPks = [...new Set(waiting.map((r) => r.send_id))];
  const sends = new Map((await models.Send.findAll({ where: { id: waitingSendPks } })).map((s) => [s.id, s]));
  const designs = await loadSnapshots(ctx, waitingSendPks);
  let retry: string | undefined;
  for (let i = 0; i < waiting.length; i += options.microBatch) {
    const token = crypto.randomUUID();
    const batch = waiting.slice(i, i + options.microBatch);
    const batchSends = [...new Set(batch.map((r) => r.send_id))].map((pk) => sends.get(pk)!);
    // The email templates are compiled before the claim: one that cannot compile leaves these to the retry.
    await prepareEmails(batchSends.map((s) => ({ design: designs.get(s.id)!, locale: s.locale })));
    const ids = batch.map((r) => r.id);
    await models.SendRecipient.update({ claim_token: token, claimed_at: ctx.now() }, { where: { id: ids, status: 'pending', claimed_at: { [Op.is]: null } } });
    const claimed = await models.SendRecipient.findAll({ where: { claim_token: token } });
    const gifts = options.gifts ? await giftEmailsFor(ctx, claimed.map((r) => r.id)) : undefined;
    const mails = await Promise.all(
      claimed.map(async (r) => {
        const send = sends.get(r.send_id)!;
        const headers = options.headers(r.recipient_email!);
        const link = recipientUrl(ctx.config.publicBaseUrl, send, r);
        const email = await renderEmail(send, designs.get(send.id)!, r, link, { gift: gifts?.get(r.id), unsubscribeUrl: unsubscribeUrlOf(headers) });
        const mail = outgoingMail(ctx.config, send, r, r.message_id!, email, headers);
        return { recipient: r, sandbox: send.sandbox, mail };
      }),
    );
    // Sandbox sends go to the sink, the others over SMTP: one call for each kind.
    const results = new Map<SendRecipient, MailError | null>();
    for (const sandbox of [true, false]) {
      const group = mails.filter((m) => m.sandbox === sandbox);
      const outcomes = await ctx.mail.sendMany(group.map((m) => m.mail), { sandbox });
      for (const [j, m] of group.entries()) results.set(m.recipient, outcomes[j] ?? null);
    }
    const sent: SendRecipient[] = [];
    const failed = new Map<string, SendRecipient[]>();
    const again: SendRecipient[] = [];
    for (const r of claimed) {
      const settled = settlementOf(results.get(r) ?? null, options.lastTry);
      if (settled.outcome === 'sent') sent.push(r);
      else if (settled.outcome === 'retry') again.push(r);
      else failed.set(settled.error, [...(failed.get(settled.error) ?? []), r]);
    }
    const announce = await announcedTypes(ctx, accountId);
    await finishRows(ctx, sent, 'sent', null, announce);
    for (const [error, rows] of failed) {
      await finishRows(ctx, rows, 'failed', error, announce);
    }
    if (again.length) {
      await releaseClaims(ctx, again.map((r) => r.id));
      retry = `SMTP refused ${again.length} email(s) for now`;
    }
    options.heartbeat();
  }
  if (retry) throw new BulkRetry(retry, 'retryable');
}
