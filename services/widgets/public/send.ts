// A stranger's send through a public widget: the form token (signed, ≤ 2 h, its nonce the idempotency key), the
// silent traps (honeypot, too fast: answered like a success, nothing sent), the eCard (visible, free), the
// sender's proof, the form's rules, then the send use case (quota, suppression, suspension, directory rule) with
// the widget's per-IP and daily limits taken in its transaction. The answer does not wait for the workflow: the
// process's starter starts it after the answer (the sweeper starts what a dead process left).
import { randomUUID } from 'node:crypto';
import { ApiError, formExpired, notFound, paymentRequired, widgetLimitReached } from '../../../lib/errors.ts';
import { sha256Hex } from '../../../lib/hash.ts';
import { randomId } from '../../../lib/ids.ts';
import { priceOf } from '../../../models/Ecard.ts';
import type { Send } from '../../../models/Send.ts';
import type { EcardRow } from '../../ecards/records.ts';
import type { ServiceContext } from '../../context.ts';
import { acceptSend } from '../../sends/accept/accept.ts';
import { pageUrl } from '../../sends/card-page/pages.ts';
import { addToCounter, count, recordAbuse } from './counters.ts';
import { displayOf } from './display.ts';
import { IP_WINDOW_MS, queueCapNotice, takeFromDailyCap, takeFromIpWindow } from './limits.ts';
import { isVisible } from './public.ts';
import { readWidgetSend } from './send-read.ts';
import { domainRefusal, personalMessageOf, provenSender, recipientsOf, sendAtOf, type WidgetSendInput } from './send-rules.ts';
import { HONEYPOT_FIELD, issueFormToken, readFormToken } from './tokens.ts';

export type { WidgetSendInput };

/** A submission sooner than this after its form token was issued is a bot's. */
export const MIN_FILL_MS = 3000;

/** What a send answers (a silent refusal answers the same, with ids that exist nowhere). */
export type WidgetSent =
  | { mode: 'email'; sendId: string; emailsSent: number; formToken: string }
  | { mode: 'schedule'; sendId: string; sendAt: Date; formToken: string }
  | { mode: 'share'; sendId: string; shareUrl: string; statVanityId: string; formToken: string };

const DAY_MS = 24 * 3600 * 1000;
const NO_CARD = 'No such eCard in this widget';

/** The eCard read with the widget, when the gallery shows it now; else the same 404. */
function shownEcard(ecard: EcardRow | null, now: Date): EcardRow {
  if (!ecard || !isVisible(ecard, now)) throw notFound(NO_CARD);
  return ecard;
}

/**
 * The answer of a send as stored (also a replay of the same form token). `recipients`: the emails of a send this
 * request made (it knows them); a replay counts its send's.
 */
async function sentOf(ctx: ServiceContext, send: Send, formToken: string, recipients: number | null): Promise<WidgetSent> {
  if (send.mode === 'share') return { mode: 'share', sendId: send.send_id, shareUrl: pageUrl(ctx.config.publicBaseUrl, send.stat_vanity_id), statVanityId: send.stat_vanity_id, formToken };
  if (send.mode === 'schedule') return { mode: 'schedule', sendId: send.send_id, sendAt: send.send_at, formToken };
  return { mode: 'email', sendId: send.send_id, emailsSent: recipients ?? (await ctx.models.SendRecipient.count({ where: { send_id: send.id } })), formToken };
}

/** The answer a bot gets: shaped like a success of what it asked for, with ids stored nowhere. */
function silentAnswer(ctx: ServiceContext, input: WidgetSendInput, sendAt: Date | undefined, formToken: string): WidgetSent {
  const sendId = randomUUID();
  if (input.share_mode !== 'email') {
    const statVanityId = randomId(24);
    return { mode: 'share', sendId, shareUrl: pageUrl(ctx.config.publicBaseUrl, statVanityId), statVanityId, formToken };
  }
  if (sendAt) return { mode: 'schedule', sendId, sendAt, formToken };
  return { mode: 'email', sendId, emailsSent: input.recipients.length, formToken };
}

/** Emails the send counts against the widget's limits: one per recipient; a share link counts as one. */
const weightOf = (input: WidgetSendInput, recipients: number) => (input.share_mode === 'email' ? recipients : 1);

export async function sendThroughWidget(ctx: ServiceContext, vanityId: string, input: WidgetSendInput, clientIp: string): Promise<WidgetSent> {
  const read = await readWidgetSend(ctx, vanityId, input.ecard);
  const { widget, account } = read;
  const now = ctx.now();
  const form = readFormToken(ctx.dataKeys, widget.id, input.form_token, now);
  const freshToken = issueFormToken(ctx.dataKeys, widget.id, now);
  if (!form) throw formExpired('This form has expired: reload it and send again', { extra: { form_token: freshToken } });
  const display = displayOf(widget.wconfig ?? {});
  const ecard = shownEcard(read.ecard, now);
  const windowMs = ctx.config.sendNowWindowSeconds * 1000;

  const trap = input[HONEYPOT_FIELD] ? 'honeypot' : now.getTime() - form.t < MIN_FILL_MS ? 'too_fast' : null;
  if (trap) {
    // Nothing of the visitor is kept: the kind and the time only.
    await recordAbuse(ctx, widget, trap);
    await count(ctx, widget, 'silent');
    let sendAt: Date | undefined;
    try {
      sendAt = sendAtOf(input, ecard, display, now, windowMs);
    } catch {
      sendAt = undefined;
    }
    return silentAnswer(ctx, input, sendAt, freshToken);
  }

  if (priceOf(ecard)) throw paymentRequired('This eCard has a price, and the widget takes no payments yet');
  const memberId = provenSender(ctx.dataKeys, widget, input, now);
  const recipients = recipientsOf(input, display);
  const sender = input.sender.email.trim();
  const refusal = domainRefusal(widget, sender, recipients);
  if (refusal) {
    await recordAbuse(ctx, widget, 'domain');
    throw refusal;
  }
  const sendAt = sendAtOf(input, ecard, display, now, windowMs);
  const personalMessage = personalMessageOf(input, ecard, display);
  const weight = weightOf(input, recipients.length);
  let limitHit: 'ip_limit' | 'daily_cap' | null = null;
  let crossed = false;

  let accepted;
  try {
    accepted = await acceptSend(ctx, account, {
      ecardId: ecard.id,
      senderEmail: sender,
      senderName: input.sender.name.trim(),
      recipientNames: recipients.map((r) => r.name),
      recipientEmails: recipients.flatMap((r) => (input.share_mode === 'email' || r.email ? [r.email] : [])),
      sendAt,
      share: input.share_mode !== 'email',
      widgetId: widget.id,
      personalMessage,
      locale: display.locale,
      mergeTags: undefined,
      overrideProps: undefined,
      // The nonce is the idempotency key: the same form sent twice (a double click, a retry) makes one send, and
      // the second answer is the first send's, whatever the second body says.
      idempotencyKey: `widget:${form.n}`,
      requestHash: sha256Hex(`widget:${form.n}`),
      notifyOnOpen: display.readReceiptEnabled && input.getReadReceipt === true,
      origin: 'widget',
      shareType: input.share_mode,
      optedIn: input.optedIn === true,
      senderMemberId: memberId,
      known: { ecard, widget },
      async reserve(transaction) {
        if (!(await takeFromIpWindow(ctx, widget, clientIp, weight, display.limitEmailsPerSession, transaction))) {
          limitHit = 'ip_limit';
          throw widgetLimitReached(`This widget sends at most ${display.limitEmailsPerSession} emails per 10 minutes from one connection: try again later`, {
            headers: { 'Retry-After': String(Math.ceil((IP_WINDOW_MS - (now.getTime() % IP_WINDOW_MS)) / 1000)) },
          });
        }
        const cap = await takeFromDailyCap(ctx, widget, weight, display.dailySendCap, transaction);
        if (cap === 'full') {
          limitHit = 'daily_cap';
          throw widgetLimitReached('This widget has sent all the eCards it sends today: try again tomorrow', {
            headers: { 'Retry-After': String(Math.ceil((DAY_MS - (now.getTime() % DAY_MS)) / 1000)) },
          });
        }
        if (cap === 'crossed') {
          crossed = true;
          await queueCapNotice(ctx, widget, display.dailySendCap, transaction);
        }
        // The day's sends, counted with the send (a statement in its transaction, not a commit of its own after it).
        await addToCounter(ctx, widget, `send:${input.share_mode}`, now, input.share_mode === 'email' ? recipients.length : 1, transaction);
      },
    });
  } catch (err) {
    if (limitHit) await recordAbuse(ctx, widget, limitHit);
    throw err;
  }
  const { send, created } = accepted;
  if (created) {
    // The widget never waits for the dispatch, so its sends (email now too) start through the process's starter
    // after the answer; a share link is live already (the accept published it).
    if (send.mode !== 'share') ctx.sendStarter.add(send);
    if (crossed) ctx.nudge();
  }
  // A send this request made has the recipients it was given (email: one row each); a replay counts its own.
  return sentOf(ctx, send, freshToken, created ? recipients.length : null);
}

/** Whether an error is one of the refusals the no-JavaScript form turns into `?error=<code>`. */
export const isRefusal = (err: unknown): err is ApiError => err instanceof ApiError && err.status < 500;
