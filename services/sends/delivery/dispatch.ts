// What the send workflow's activity does: take the send from scheduled to pending (unless canceled), render the
// card for each recipient from the send's snapshot (kept with the send), email each one at most once, and record
// how the send ended. A share link is published as its accept publishes it (./share-link.ts).
// Each recipient's claim (a deterministic Message-ID) is written before SMTP is asked: a retry that finds a
// claim without a result cannot know whether the message left, so it marks the recipient failed instead of
// sending a second email. The transport's answer is settled as the bulk sender settles it (./settlement.ts).
import { Op } from 'sequelize';
import { ApiError } from '../../../lib/errors.ts';
import type { Send, SendStatus } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import type { ServiceContext } from '../../context.ts';
import { MailError } from '../../mail/transport.ts';
import { giftEmailsFor } from '../../rewards/hand-off.ts';
import { releaseReservation } from '../../rewards/reservations.ts';
import { prepareSendGifts } from '../../rewards/send-gift.ts';
import { settleGiftOrders } from '../../rewards/settle.ts';
import { outcomeTransaction, subscribedTypes } from './outcome-events.ts';
import { announceMarked } from './outcome-marks.ts';
import { releaseQuota } from '../accept/quota.ts';
import { messageIdOf, OUTCOME_UNKNOWN, outgoingMail } from './delivery.ts';
import { releaseClaims, settlementOf } from './settlement.ts';
import { givePagesToRecipients, recipientUrl } from '../card-page/pages.ts';
import { prepareEmails, renderEmail } from '../email/email.ts';
import { renderCard } from '../card-page/render.ts';
import { publishShareLink } from '../accept/share-link.ts';
import { unsubscribeHeaders, unsubscribeLinks, unsubscribeUrlOf } from './unsubscribe.ts';
import { loadSnapshot, type EcardDesign } from '../accept/snapshot.ts';

export interface SendOutcome {
  status: SendStatus;
  emailsSent: number;
  error: string | null;
}

const outcomeOf = (send: Send): SendOutcome => ({ status: send.status, emailsSent: send.emails_sent, error: send.error });

async function finish(ctx: ServiceContext, send: Send): Promise<SendOutcome> {
  const recipients = await ctx.models.SendRecipient.findAll({ where: { send_id: send.id }, order: [['position', 'ASC']] });
  const sent = recipients.filter((r) => r.status === 'sent').length;
  const failed = recipients.filter((r) => r.status === 'failed');
  const status: SendStatus = send.mode === 'share' || sent > 0 ? 'sent' : 'failed';
  const error = failed[0]?.error ?? null;
  // The send's end marks its recipients for their outcome events in one transaction (only the update that ended it
  // marks), and the marks are announced right after, as the bulk sender's are (outcome-marks.ts: one path for every
  // delivery outcome; a crash in between leaves the marks to the sweep).
  const changed = await outcomeTransaction(ctx, send.account_id, ['ecard_delivered', 'ecard_failed'], async (transaction, emits) => {
    const [ended] = await ctx.models.Send.update({ status, emails_sent: sent, error }, { where: { id: send.id, status: 'pending' }, transaction });
    if (ended && emits) {
      for (const type of await subscribedTypes(ctx, send.account_id, ['ecard_delivered', 'ecard_failed'], transaction)) {
        await ctx.models.SendRecipient.update(
          { announce_event: type },
          { where: { send_id: send.id, status: type === 'ecard_delivered' ? 'sent' : 'failed', announce_event: { [Op.is]: null } }, transaction },
        );
      }
    }
    return ended;
  });
  if (changed) await announceMarked(ctx, [send.id]);
  // The quota of emails that did not go out is given back, once (only the update that ended the send does it).
  if (changed && send.quota_month && failed.length) await releaseQuota(ctx, send.account_id, send.quota_month, Math.min(failed.length, send.quota_count));
  if (send.gift_product_id) {
    // Gifts that did not reach their recipient end (failed, refunded); what no order took of the reservation goes back.
    await settleGiftOrders(ctx, [send.id]);
    await releaseReservation(ctx, 'sends', send.id, send.account_id);
  }
  return outcomeOf(await send.reload());
}

async function markFailed(recipient: SendRecipient, error: string, at: Date) {
  await recipient.update({ status: 'failed', error: error.slice(0, 1000), finished_at: at });
}

/**
 * A public widget's emails go to addresses a stranger typed: like bulk mail they carry List-Unsubscribe (one click
 * suppresses the address for the account) and the same link in the footer. API sends carry none.
 */
async function headersOf(ctx: ServiceContext, send: Send, recipient: SendRecipient): Promise<Record<string, string> | undefined> {
  if (send.origin !== 'widget' || !recipient.recipient_email) return undefined;
  const links = await unsubscribeLinks(ctx, send.account_id, [recipient.recipient_email]);
  return unsubscribeHeaders(ctx.config.publicBaseUrl, links.get(recipient.recipient_email.toLowerCase()));
}

async function emailOne(ctx: ServiceContext, send: Send, design: EcardDesign, recipient: SendRecipient, link: string, lastTry: boolean): Promise<void> {
  const { models } = ctx;
  if (recipient.claimed_at) return markFailed(recipient, OUTCOME_UNKNOWN, ctx.now());
  const headers = await headersOf(ctx, send, recipient);
  const messageId = messageIdOf(send, recipient);
  const [claimed] = await models.SendRecipient.update(
    { claimed_at: ctx.now(), message_id: messageId },
    { where: { id: recipient.id, claimed_at: { [Op.is]: null } } },
  );
  if (!claimed) return markFailed(recipient, OUTCOME_UNKNOWN, ctx.now());
  // The gift block (a fresh claim link) is made now, at the hand-off: it is never part of what is stored.
  const gift = send.gift_product_id ? (await giftEmailsFor(ctx, [recipient.id])).get(recipient.id) : undefined;
  const email = await renderEmail(send, design, recipient, link, { gift, unsubscribeUrl: headers && unsubscribeUrlOf(headers) });
  let answer: MailError | null = null;
  try {
    await ctx.mail.send(outgoingMail(ctx.config, send, recipient, messageId, email, headers), { sandbox: send.sandbox });
  } catch (err) {
    if (!(err instanceof MailError)) throw err;
    answer = err;
  }
  const settled = settlementOf(answer, lastTry);
  if (settled.outcome === 'retry') {
    await releaseClaims(ctx, [recipient.id]);
    throw answer!;
  }
  if (settled.outcome === 'failed') return markFailed(recipient, settled.error, ctx.now());
  await recipient.update({ status: 'sent', finished_at: ctx.now(), error: null });
}

/** The activity's work; safe to run again after a crash at any point. */
export async function dispatchSend(ctx: ServiceContext, sendPk: number, options: { lastTry: boolean; heartbeat?: () => void }): Promise<SendOutcome> {
  const { models } = ctx;
  let send = await models.Send.findByPk(sendPk, { rejectOnEmpty: true });
  if (send.status === 'scheduled') {
    await models.Send.update({ status: 'pending' }, { where: { id: send.id, status: 'scheduled' } });
    send = await send.reload();
  }
  if (send.status !== 'pending') return outcomeOf(send);
  const design = await loadSnapshot(ctx, send.id);
  const recipients = await models.SendRecipient.findAll({ where: { send_id: send.id }, order: [['position', 'ASC']] });
  await givePagesToRecipients(ctx, send, recipients);
  if (!design) {
    // Only a send accepted before snapshots existed, whose eCard was deleted before the migration took one.
    for (const r of recipients) if (r.status === 'pending') await markFailed(r, 'The eCard was deleted before the send went out', ctx.now());
    return finish(ctx, send);
  }
  if (send.mode === 'share') {
    // A share link's workflow started before accepts published them, or after an accept died before publishing.
    await publishShareLink(ctx, send, design, recipients);
    return outcomeOf(await send.reload());
  }
  for (const r of recipients) {
    if (r.rendered_html !== null || r.status !== 'pending') continue;
    let card: ReturnType<typeof renderCard>;
    try {
      card = renderCard(send, design, r, recipientUrl(ctx.config.publicBaseUrl, send, r));
    } catch (err) {
      // A template refused at render (invalid_template, template_too_large): this recipient fails with that reason.
      if (!(err instanceof ApiError)) throw err;
      await markFailed(r, `${err.code}: ${err.message}`, ctx.now());
      continue;
    }
    await r.update({ rendered_subject: card.subject.slice(0, 1000), rendered_header: card.header.slice(0, 1000), rendered_html: card.html });
  }
  // Each gift's order (its code) before any email; a recipient whose gift could not be had fails without one.
  if (send.gift_product_id) {
    await prepareSendGifts(ctx, send, recipients, options.heartbeat);
    for (const r of recipients) await r.reload();
  }
  await prepareEmails([{ design, locale: send.locale }]);
  // A heartbeat before each email: a worker that dies mid-send is noticed within the heartbeat timeout.
  for (const r of recipients) {
    if (r.status !== 'pending') continue;
    options.heartbeat?.();
    await emailOne(ctx, send, design, r, recipientUrl(ctx.config.publicBaseUrl, send, r), options.lastTry);
  }
  return finish(ctx, send);
}

/** The workflow's last word when the activity gave up: whatever is still pending failed (claimed ones: unknown). */
export async function failSend(ctx: ServiceContext, sendPk: number, reason: string): Promise<SendOutcome> {
  const send = await ctx.models.Send.findByPk(sendPk, { rejectOnEmpty: true });
  if (send.status !== 'pending' && send.status !== 'scheduled') return outcomeOf(send);
  await ctx.models.Send.update({ status: 'pending' }, { where: { id: send.id, status: 'scheduled' } });
  const pending = await ctx.models.SendRecipient.findAll({ where: { send_id: send.id, status: 'pending' } });
  for (const r of pending) await markFailed(r, r.claimed_at ? OUTCOME_UNKNOWN : reason, ctx.now());
  return finish(ctx, await send.reload());
}
