// Accepting a send: every rule that can refuse it, then the send, its recipients, its snapshot of the design, its
// quota reservation, its gift's spend reservation and held codes, its idempotency row and its ecard_shared event in
// one transaction. After the commit a share link is published (./share-link.ts); other sends' workflows are started
// by the caller (./send-ecard.ts, the widget), at once or through the process's starter (./starter.ts).
import { Op, UniqueConstraintError, type Attributes, type Transaction } from 'sequelize';
import { z } from 'zod';
import { writeTransaction } from '../../../lib/db.ts';
import {
  idempotencyMismatch, invalidParameter, notFound, providerFailed, recipientEmailInvalid, recipientMissing, sendAtPast,
  sendAtTooFar, sendBlocked, senderEmailInvalid, senderNotInDirectory, sendingSuspended, tooManySendRecipients, wouldExceedLimit,
} from '../../../lib/errors.ts';
import { randomId } from '../../../lib/ids.ts';
import { insertRows, withDefaults } from '../../../lib/written-statements.ts';
import type { Account } from '../../../models/Account.ts';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Send, SendMode, ShareType } from '../../../models/Send.ts';
import type { ServiceContext } from '../../context.ts';
import { recordEvent } from '../../outbox.ts';
import { dayOf } from '../../rewards/periods.ts';
import { checkGift, holdGiftCodes, reserveGiftSpend } from '../../rewards/send-gift.ts';
import { sanitizeHtmlField } from '../../ecards/templates.ts';
import { sharedEvent } from '../delivery/shared-event.ts';
import { publishShareLink } from './share-link.ts';
import { billingMonth, reserveQuota } from './quota.ts';
import { blockedRecipient } from './rules.ts';
import { readForAccept, type AcceptReads, type AcceptWidget, type KnownRows } from './accept-read.ts';
import { withPageIds } from '../card-page/pages.ts';
import { newBounceToken } from '../delivery/return-path.ts';
import { widgetDesignsOf } from './widget-design.ts';
import { brandDesignOf, designOf, saveSnapshot, type BrandOverride } from './snapshot.ts';

export const MAX_RECIPIENTS = 50;
const MAX_AHEAD_MS = 366 * 24 * 3600 * 1000;
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export interface SendRequest {
  ecardId: number;
  senderEmail: string;
  senderName: string;
  recipientNames: string[];
  recipientEmails: string[];
  sendAt: Date | undefined;
  share: boolean;
  widgetId: string | number | undefined;
  personalMessage: string | undefined;
  locale: string | undefined;
  mergeTags: Record<string, string> | undefined;
  overrideProps: Record<string, unknown> | undefined;
  idempotencyKey: string | undefined;
  /** A hash of the request body: the same key with another body is refused. */
  requestHash: string;
  /** A gift card for each recipient (the caller's key also needs gift_cards: manage). */
  gift?: { product_id: string; amount: number } | undefined;
  /** `opennotification`: a read receipt to the sender at each recipient's first open. */
  notifyOnOpen?: boolean | undefined;
  /** Where the send comes from: the API's send-ecard (`single`, the default) or a public widget. */
  origin?: 'single' | 'widget';
  /** A widget send: what the visitor chose (email or a share button), `ecard_shared.type`. */
  shareType?: ShareType | undefined;
  /** A widget send: the sender agreed to hear from the account. */
  optedIn?: boolean | undefined;
  /** A widget send: the directory member the sender proved to be (a widget session). */
  senderMemberId?: number | null | undefined;
  /** A widget send: the eCard and its widget, read already (the accept does not read them again). */
  known?: KnownRows | undefined;
  /**
   * The caller's own reservations, taken in the send's transaction just before the quota (so a send refused or
   * rolled back gives them back): a public widget's per-IP window, daily cap and day's send counter. Before the
   * quota, because the month's quota row is the one every accept of the account waits for, held from its statement
   * to the commit.
   */
  reserve?: ((transaction: Transaction) => Promise<void>) | undefined;
}

const isEmail = (value: string) => z.email().safeParse(value).success;

/** Email now, scheduled, or share link; `sendAt` within a minute means now; past or over a year ahead is refused. */
function modeOf(request: SendRequest, now: Date, windowMs: number): { mode: SendMode; sendAt: Date } {
  if (request.share) return { mode: 'share', sendAt: now };
  if (!request.sendAt || request.sendAt.getTime() <= now.getTime() + windowMs) {
    if (request.sendAt && request.sendAt.getTime() < now.getTime() - windowMs) {
      throw sendAtPast(`sendAt ${request.sendAt.toISOString()} is in the past`);
    }
    return { mode: 'email', sendAt: now };
  }
  if (request.sendAt.getTime() > now.getTime() + MAX_AHEAD_MS) throw sendAtTooFar('sendAt is more than a year ahead');
  return { mode: 'schedule', sendAt: request.sendAt };
}

function checkAddresses(request: SendRequest, mode: SendMode): Array<{ name: string; email: string | null }> {
  if (!isEmail(request.senderEmail)) throw senderEmailInvalid(`senderEmail is not a valid email address: ${JSON.stringify(request.senderEmail)}`);
  const emails = request.recipientEmails;
  if (mode !== 'share' && emails.length === 0) throw recipientMissing('recipientEmail is required: give at least one recipient');
  const count = Math.max(emails.length, request.recipientNames.length);
  if (count > MAX_RECIPIENTS) throw tooManySendRecipients(`At most ${MAX_RECIPIENTS} recipients per send (got ${count})`);
  if (emails.length > 0 && emails.length !== request.recipientNames.length) {
    throw invalidParameter('recipientName and recipientEmail must have the same number of values');
  }
  const bad = emails.find((e) => !isEmail(e));
  if (bad !== undefined) throw recipientEmailInvalid(`recipientEmail is not a valid email address: ${JSON.stringify(bad)}`);
  if (mode === 'share') return [{ name: request.recipientNames[0] ?? '', email: emails[0]?.toLowerCase() ?? null }];
  return emails.map((email, i) => ({ name: request.recipientNames[i]!, email: email.toLowerCase() }));
}

/** The eCard (enabled, this account's) and its widget, which a given `widgetId` must name. */
function sendable(read: AcceptReads, request: SendRequest): { ecard: Attributes<Ecard>; widget: AcceptWidget } {
  const { ecard, widget } = read;
  if (!ecard || ecard.disabled) throw notFound(`No enabled eCard with id ${request.ecardId}`);
  // An eCard's widget is a foreign key: never missing (as findByPk's rejectOnEmpty had it).
  if (!widget) throw new Error(`eCard ${ecard.id} has no widget ${ecard.widget_id}`);
  if (request.widgetId !== undefined && String(request.widgetId) !== widget.vanity_id && String(request.widgetId) !== String(widget.id)) {
    throw notFound(`eCard ${ecard.id} is not in widget ${request.widgetId}`);
  }
  return { ecard, widget };
}

/** The directory rule of the eCard's widget: the sender must be an active member. */
async function checkDirectory(ctx: Pick<ServiceContext, 'models'>, account: Account, widget: AcceptWidget, senderEmail: string): Promise<void> {
  const { models } = ctx;
  if (!widget.dir_sender_must_be_in_directory) return;
  const member = await models.TeamMember.findOne({ where: { account_id: account.id, email: senderEmail.toLowerCase(), disabled: false } });
  if (!member) throw senderNotInDirectory(`${senderEmail} is not an active member of this account's directory, which this widget requires of senders`);
}

/** The key's row, if any (the retry after a concurrent request with the same key made its send first). */
async function keyRowOf(ctx: Pick<ServiceContext, 'models'>, accountId: number, request: SendRequest): Promise<AcceptReads['key']> {
  const { models } = ctx;
  if (!request.idempotencyKey) return null;
  return models.IdempotencyKey.findOne({ where: { account_id: accountId, idem_key: request.idempotencyKey } });
}

/** What the key's row says: a send made with it in the last 24 hours (422 when the body differs), or an expired row. */
async function keyUse(ctx: Pick<ServiceContext, 'models'>, row: AcceptReads['key'], request: SendRequest, now: Date): Promise<{ earlier: Send | null; expired: boolean }> {
  const { models } = ctx;
  if (!request.idempotencyKey || !row) return { earlier: null, expired: false };
  if (now.getTime() - row.created_at.getTime() > IDEMPOTENCY_WINDOW_MS) return { earlier: null, expired: true };
  if (row.request_hash !== request.requestHash) {
    throw idempotencyMismatch('This Idempotency-Key was used in the last 24 hours with a different request body');
  }
  return { earlier: await models.Send.findByPk(row.send_id, { rejectOnEmpty: true }), expired: false };
}

export interface Accepted {
  send: Send;
  /** False when the Idempotency-Key named an earlier send (nothing new was made). */
  created: boolean;
}

/**
 * The send and everything that comes with it in one transaction that takes no account lock, so one account's
 * accepts run side by side (MySQL; SQLite has one writer anyway). What the lock bought is kept by the statement
 * order every writer of an account's rows follows (docs/decisions.md, "Hot paths"): first the account row (here
 * the shared lock each insert's foreign key takes), then the transaction's own new rows, then the idempotency row
 * by its primary key (a second request with the key waits on it, then fails as a duplicate and answers with the
 * first send), and last the counters (a widget's limits, then the month's quota, then the gift spend), each one
 * conditional statement, held only until the commit that follows, and at the very last the gift's manual codes
 * (SKIP LOCKED: that step never waits, so a transaction holding code rows waits for nothing else).
 */
export async function acceptSend(ctx: ServiceContext, account: Account, request: SendRequest): Promise<Accepted> {
  const { models } = ctx;
  const now = ctx.now();
  // The recipients' addresses as checkAddresses keeps them (a share link: its first), for the suppression check.
  const emails = request.share ? request.recipientEmails.slice(0, 1) : request.recipientEmails;
  const read = await readForAccept(ctx, account.id, request, emails, request.known);
  const key = await keyUse(ctx, read.key, request, now);
  if (key.earlier) return { send: key.earlier, created: false };
  const { mode, sendAt } = modeOf(request, now, ctx.config.sendNowWindowSeconds * 1000);
  const statVanityId = randomId(24);
  const recipients = withPageIds(checkAddresses(request, mode), statVanityId);
  const { ecard, widget } = sendable(read, request);
  if (read.suspended) throw sendingSuspended('Sending is suspended for this account');
  const blocked = read.suppressed ? await blockedRecipient(ctx, account.id, recipients.flatMap((r) => (r.email ? [r.email] : []))) : null;
  if (blocked) throw sendBlocked(blocked);
  await checkDirectory(ctx, account, widget, request.senderEmail);
  // The brand as it is now (the eCard's, or the default), with this send's overrides: kept in the snapshot.
  // The brand's gaps are filled by the eCard's widget, whose merge-tag fallbacks go with the design too.
  const widgetDesign = (await widgetDesignsOf(ctx, [ecard], undefined, [widget])).get(ecard.id) ?? null;
  const brand = brandDesignOf(read.brand, request.overrideProps?.brand as BrandOverride | undefined, widgetDesign);
  const sandbox = account.mode === 'sandbox';
  if (mode !== 'share' && !sandbox && ctx.config.mail.transport === 'none') {
    throw providerFailed('No mail transport is configured (set SMTP_URL, or MAIL_TRANSPORT=sink)');
  }
  const gift = request.gift ? await checkGift(ctx, account, request.gift, { share: mode === 'share', recipients: recipients.length }) : null;
  // Share links and sandbox sends consume no quota.
  const quotaCount = mode === 'share' || sandbox ? 0 : recipients.length;
  const month = billingMonth(sendAt);
  const giftCents = gift ? gift.gift.amount_cents * recipients.length : 0;
  const giftDay = dayOf(now);
  const design = designOf(ecard, brand, widgetDesign);

  let accepted: Accepted;
  try {
    accepted = await writeTransaction(models.sequelize, async (transaction): Promise<Accepted> => {
      // Written out, no model instance built until the row is in (docs/performance.md, "Accepts, round two"); the
      // model's defaults and timestamps are filled in as its create would (withDefaults).
      const at = new Date();
      const values = withDefaults(models.Send, {
        send_id: crypto.randomUUID(),
        account_id: account.id,
        ecard_id: ecard.id,
        widget_id: ecard.widget_id,
        mode,
        status: mode === 'schedule' ? ('scheduled' as const) : ('pending' as const),
        sandbox,
        sender_name: request.senderName,
        sender_email: request.senderEmail.toLowerCase(),
        personal_message: request.personalMessage ? sanitizeHtmlField(request.personalMessage) : null,
        locale: request.locale ?? 'en',
        merge_tags: request.mergeTags ? JSON.stringify(request.mergeTags) : null,
        override_props: request.overrideProps ? JSON.stringify(request.overrideProps) : null,
        send_at: sendAt,
        stat_vanity_id: statVanityId,
        notify_on_open: request.notifyOnOpen === true,
        origin: request.origin ?? 'single',
        share_type: request.shareType ?? null,
        opted_in: request.optedIn === true,
        sender_member_id: request.senderMemberId ?? null,
        quota_month: quotaCount ? month : null,
        quota_count: quotaCount,
        gift_reserved_cents: giftCents,
        ...(gift ? { gift_product_id: gift.gift.product_id, gift_amount_cents: gift.gift.amount_cents, gift_spend_day: giftDay } : {}),
      }, at);
      const id = await insertRows(models.Send, [values], transaction, at);
      const send = models.Send.build({ ...values, id }, { isNewRecord: false, raw: true });
      await insertRows(
        models.SendRecipient,
        recipients.map((r, i) => ({
          send_id: id, position: i + 1, recipient_name: r.name, recipient_email: r.email, page_id: r.pageId, bounce_token: newBounceToken(ctx.config.bounces),
        })),
        transaction,
      );
      await saveSnapshot(ctx, send.id, design, transaction);
      await recordEvent(
        ctx,
        { accountId: account.id, eventId: send.send_id, eventType: 'ecard_shared', source: 'api', memberId: null, occurredAt: now, body: sharedEvent(send, ecard, recipients) },
        transaction,
      );
      if (request.idempotencyKey) {
        // A key older than the window is free again: its row goes by its primary key (never a range, whose gap
        // lock two concurrent claims would both hold and then both wait on).
        if (key.expired) {
          await models.IdempotencyKey.destroy({
            where: { account_id: account.id, idem_key: request.idempotencyKey, created_at: { [Op.lt]: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) } },
            transaction,
          });
        }
        await insertRows(models.IdempotencyKey, [{ account_id: account.id, idem_key: request.idempotencyKey, request_hash: request.requestHash, send_id: id, created_at: now }], transaction);
      }
      if (request.reserve) await request.reserve(transaction);
      if (quotaCount && !(await reserveQuota(ctx, account.id, month, quotaCount, ctx.config.emailsPerMonth[account.plan], transaction))) {
        throw wouldExceedLimit(`The ${account.plan} plan has fewer than ${quotaCount} emails left for ${month}`);
      }
      if (gift) await reserveGiftSpend(ctx, account.id, gift, giftCents, transaction, giftDay);
      if (gift) await holdGiftCodes(ctx, account.id, gift, send.id, recipients.length, transaction);
      return { send, created: true };
    });
  } catch (err) {
    // A concurrent request with the same key made the send first: answer with it.
    if (err instanceof UniqueConstraintError && request.idempotencyKey) {
      const first = await keyUse(ctx, await keyRowOf(ctx, account.id, request), request, now);
      if (first.earlier) return { send: first.earlier, created: false };
    }
    throw err;
  }
  // A share link goes live in its own transaction right after the commit, with no workflow, so its link works the
  // moment it is answered. If that fails, the send stays pending and the sweeper's workflow publishes it.
  if (mode === 'share') {
    const rows = recipients.map((r, i) => ({ position: i + 1, recipient_name: r.name, recipient_email: r.email, page_id: r.pageId, status: 'pending' as const, rendered_html: null }));
    await publishShareLink(ctx, accepted.send, design, rows).catch((err: unknown) => ctx.logger.warn({ err, sendId: accepted.send.send_id }, 'share link not published yet (the sweeper publishes it)'));
  }
  return accepted;
}
