// Sender verification on a public widget: the visitor asks for a code for an address (`start`), the code arrives by
// email, the visitor gives it back (`confirm`) and gets a widget session (services/widgets/public/tokens.ts) that the send
// takes as proof. `start` answers the same whatever happened (mailed, limited, suppressed), so nobody learns which
// addresses are limited or suppressed; only `confirm`, after the code proved the address, may say more (the
// directory rule). Codes are stored hashed with their row's id and live 10 minutes; the rows stay an hour because
// they are also what the per-hour limits count (the daily prune removes them after that hour).
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Op } from 'sequelize';
import { codeExpired, codeInvalid, codeTriesExhausted, formExpired, senderNotInDirectory } from '../../../lib/errors.ts';
import type { Widget } from '../../../models/Widget.ts';
import type { ServiceContext } from '../../context.ts';
import { stringsFor } from '../../i18n/locale.ts';
import { blockedRecipient } from '../../sends/accept/rules.ts';
import { recordAbuse } from './counters.ts';
import { displayOf } from './display.ts';
import { findPublicWidget } from './public.ts';
import { issueWidgetSession, readFormToken } from './tokens.ts';

/** A code is good for ten minutes. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** The window the limits count in; a row is kept this long after it was made (then pruned). */
export const LIMIT_WINDOW_MS = 60 * 60 * 1000;
/** Codes mailed to one address per hour, across every widget of every account (nobody is mail-bombed). */
export const CODES_PER_EMAIL_PER_HOUR = 3;
/** Codes asked for from one client IP per hour, across every widget. */
export const CODES_PER_IP_PER_HOUR = 10;
/** Guesses per code. */
export const TRIES_PER_CODE = 5;

/** The client IP as the limits know it: hashed, never stored as it is. */
export const verifyIpHash = (ip: string) => createHash('sha256').update(`cardsvc widget verify ip:${ip}`).digest('hex');

/** What the row keeps of a code: SHA-256 of `<row id>:<code>` (the id salts it, so equal codes differ). */
export const codeHash = (rowId: number, code: string) => createHash('sha256').update(`${rowId}:${code}`).digest('hex');

const normalized = (email: string) => email.trim().toLowerCase();

async function recentCount(ctx: ServiceContext, where: { email: string } | { ip_hash: string }): Promise<number> {
  return ctx.models.WidgetVerification.count({ where: { ...where, created_at: { [Op.gt]: new Date(ctx.now().getTime() - LIMIT_WINDOW_MS) } } });
}

/**
 * Mails a fresh code to `email` unless a limit or the account's suppression list says no; answers nothing either
 * way (the caller answers `{ sent: true }`). A stale or foreign form token is the one refusal (400 form_expired):
 * it says nothing about the address.
 */
export async function startVerification(ctx: ServiceContext, vanityId: string, input: { formToken: string; email: string; clientIp: string }): Promise<void> {
  const widget = await findPublicWidget(ctx, vanityId);
  if (!readFormToken(ctx.dataKeys, widget.id, input.formToken, ctx.now())) throw formExpired('The form is too old or not this widget’s: reload it');
  const email = normalized(input.email);
  const ipHash = verifyIpHash(input.clientIp);
  // The IP first: an IP over its limit does not spend the address's codes.
  if ((await recentCount(ctx, { ip_hash: ipHash })) >= CODES_PER_IP_PER_HOUR) return recordAbuse(ctx, widget, 'verify_ip_limit');
  if ((await recentCount(ctx, { email })) >= CODES_PER_EMAIL_PER_HOUR) return recordAbuse(ctx, widget, 'verify_email_limit');
  const now = ctx.now();
  const suppressed = (await blockedRecipient(ctx, widget.account_id, [email])) !== null;
  await ctx.models.sequelize.transaction(async (transaction) => {
    // A suppressed address gets a row without a code (it counts toward the limits like any other ask) and no mail.
    const row = await ctx.models.WidgetVerification.create(
      { account_id: widget.account_id, widget_id: widget.id, email, ip_hash: ipHash, code_hash: null, expires_at: new Date(now.getTime() + CODE_LIFETIME_MS), created_at: now },
      { transaction },
    );
    if (suppressed) return;
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await row.update({ code_hash: codeHash(row.id, code) }, { transaction });
    const strings = stringsFor(displayOf(widget.wconfig).locale);
    await ctx.models.MailMessage.create(
      {
        account_id: widget.account_id,
        kind: 'widget_verify',
        recipient: email,
        reply_to: null,
        subject: strings.t('verifySubject', { code }),
        text_body: strings.t('verifyBody', { code, widget: widget.name, minutes: CODE_LIFETIME_MS / 60_000 }),
        created_at: now,
      },
      { transaction },
    );
    transaction.afterCommit(() => ctx.nudge());
  });
}

export interface ConfirmedSender {
  widget_session: string;
  expires_at: string;
}

/** The directory's active member with this address, when the widget takes only members; null when it takes anyone. */
async function memberUnderRule(ctx: ServiceContext, widget: Widget, email: string): Promise<number | null> {
  if (!widget.dir_sender_must_be_in_directory) return null;
  const member = await ctx.models.TeamMember.findOne({ where: { account_id: widget.account_id, email, disabled: false }, attributes: ['id'] });
  if (!member) throw senderNotInDirectory(`${email} is not an active member of this account's directory, which this widget requires of senders`);
  return member.id;
}

/**
 * Checks the newest code asked for `email` on this widget. Each guess spends a try first (one conditional UPDATE,
 * so parallel guesses cannot share a try); a right code is spent too (a second confirm with it fails).
 */
export async function confirmVerification(ctx: ServiceContext, vanityId: string, input: { email: string; code: string }): Promise<ConfirmedSender> {
  const { models } = ctx;
  const widget = await findPublicWidget(ctx, vanityId);
  const email = normalized(input.email);
  const now = ctx.now();
  const row = await models.WidgetVerification.findOne({ where: { widget_id: widget.id, email }, order: [['created_at', 'DESC'], ['id', 'DESC']] });
  if (!row || row.expires_at.getTime() <= now.getTime()) throw codeExpired('This code has expired or none was asked for: ask for a new code');
  const [spent] = await models.WidgetVerification.update({ tries: models.sequelize.literal('tries + 1') }, { where: { id: row.id, tries: { [Op.lt]: TRIES_PER_CODE } } });
  if (!spent) throw codeTriesExhausted('This code had its five tries: ask for a new code');
  const triesLeft = TRIES_PER_CODE - row.tries - 1;
  const given = Buffer.from(codeHash(row.id, input.code.trim()), 'hex');
  const right = row.code_hash !== null && timingSafeEqual(Buffer.from(row.code_hash, 'hex'), given);
  if (!right) throw codeInvalid('This code is not the one we sent', { extra: { tries_left: Math.max(0, triesLeft) } });
  const [used] = await models.WidgetVerification.update({ code_hash: null }, { where: { id: row.id, code_hash: row.code_hash } });
  if (!used) throw codeInvalid('This code is not the one we sent', { extra: { tries_left: Math.max(0, triesLeft) } });
  const memberId = await memberUnderRule(ctx, widget, email);
  const expiresAt = now.getTime() + widget.dir_session_timeout_minutes * 60_000;
  return {
    widget_session: issueWidgetSession(ctx.dataKeys, { w: widget.id, e: email, m: memberId, x: expiresAt }),
    expires_at: new Date(expiresAt).toISOString(),
  };
}
