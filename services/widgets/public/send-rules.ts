// The widget form's rules for one submission, checked before anything is stored: the sender's proof (verification),
// the number of recipients, the address rules (domain lists), when it goes out (a schedule the card allows, within
// `scheduleMaxDays`, or the card's forced time), the personal message and the read receipt.
import { z } from 'zod';
import {
  invalidParameter, recipientEmailInvalid, recipientMissing, senderEmailInvalid, tooManySendRecipients, verificationRequired,
} from '../../../lib/errors.ts';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Widget } from '../../../models/Widget.ts';
import type { DataKeys } from '../../../lib/data-key.ts';
import type { WidgetDisplay } from './display.ts';
import { domainsOf, outsideDomains } from './domains.ts';
import { readWidgetSession } from './tokens.ts';
import type { ShareType } from '../../../models/Send.ts';

/** One submission of the widget's form, as its contract parses it (the JSON body, or the flattened form). */
export interface WidgetSendInput {
  form_token: string;
  fax_number?: string | undefined;
  /** The eCard's vanity id. */
  ecard: string;
  share_mode: ShareType;
  sender: { name: string; email: string };
  recipients: Array<{ name: string; email: string }>;
  personalMessage?: string | undefined;
  sendAt?: Date | undefined;
  getReadReceipt?: boolean | undefined;
  optedIn?: boolean | undefined;
  widget_session?: string | undefined;
}

const isEmail = (value: string) => z.email().safeParse(value).success;

/** The widget's sender proof: a session for this very address when the widget asks for one; its member id, or null. */
export function provenSender(
  keys: DataKeys | undefined,
  widget: Pick<Widget, 'id' | 'email_verification_required' | 'dir_sender_must_be_in_directory'>,
  input: WidgetSendInput, now: Date): number | null {
  if (!widget.email_verification_required && !widget.dir_sender_must_be_in_directory) return null;
  const session = input.widget_session ? readWidgetSession(keys, widget.id, input.widget_session, now) : null;
  if (!session || session.e !== input.sender.email.trim().toLowerCase()) {
    throw verificationRequired(`This widget sends only for senders who proved their address: confirm ${input.sender.email} with the code emailed to it first`);
  }
  return session.m ?? null;
}

/** The recipients the send takes: 1..maxRecipients for email; a share link keeps the first one (or none) as its name. */
export function recipientsOf(input: WidgetSendInput, display: WidgetDisplay): Array<{ name: string; email: string }> {
  const given = input.recipients.map((r) => ({ name: r.name.trim(), email: r.email.trim() }));
  if (input.share_mode !== 'email') return given.slice(0, 1);
  if (given.length === 0) throw recipientMissing('Give at least one recipient');
  if (given.length > display.maxRecipients) throw tooManySendRecipients(`This widget sends to at most ${display.maxRecipients} recipients at once (got ${given.length})`);
  return given;
}

export type DomainRefusal = 'sender' | 'recipient';

/** The first address the widget's domain lists refuse, as the refusal to throw (einvalid: sender, finvalid: recipient). */
export function domainRefusal(widget: Pick<Widget, 'sender_email_domains_whitelist' | 'recipient_email_domains_whitelist'>, sender: string, recipients: ReadonlyArray<{ email: string }>) {
  // A malformed address is not a domain question: the send's own check names it.
  if (isEmail(sender) && outsideDomains(widget.sender_email_domains_whitelist, [sender])) {
    const list = domainsOf(widget.sender_email_domains_whitelist).join(', ');
    return senderEmailInvalid(`This widget takes senders with an address at ${list} only (sender_email_domains_whitelist): ${sender} is not one`);
  }
  const emails = recipients.map((r) => r.email).filter((e) => e !== '' && isEmail(e));
  const outside = outsideDomains(widget.recipient_email_domains_whitelist, emails);
  if (outside) {
    const list = domainsOf(widget.recipient_email_domains_whitelist).join(', ');
    return recipientEmailInvalid(`This widget sends to addresses at ${list} only (recipient_email_domains_whitelist): ${outside} is not one`);
  }
  return null;
}

/**
 * When the send goes out (undefined = now). A share link has no time. The card's forced time wins over what was
 * sent (a forced time already past means now); otherwise a time beyond the send-now window needs a card that
 * can be scheduled and is at most `scheduleMaxDays` ahead.
 */
export function sendAtOf(input: WidgetSendInput, ecard: Pick<Ecard, 'predefined_schedule_on' | 'predefined_schedule_forced' | 'predefined_schedule' | 'can_schedule'>, display: WidgetDisplay, now: Date, windowMs: number): Date | undefined {
  if (input.share_mode !== 'email') return undefined;
  if (ecard.predefined_schedule_on && ecard.predefined_schedule_forced && ecard.predefined_schedule) {
    return ecard.predefined_schedule.getTime() > now.getTime() + windowMs ? ecard.predefined_schedule : undefined;
  }
  const at = input.sendAt;
  if (!at || at.getTime() <= now.getTime() + windowMs) return at;
  if (!ecard.can_schedule) throw invalidParameter('sendAt: this eCard is sent now only (it cannot be scheduled)');
  if (at.getTime() > now.getTime() + display.scheduleMaxDays * 24 * 3600 * 1000) {
    throw invalidParameter(`sendAt: this widget schedules at most ${display.scheduleMaxDays} days ahead`);
  }
  return at;
}

/** The personal message kept: none when the card has no box; required unless the widget makes it optional. */
export function personalMessageOf(input: WidgetSendInput, ecard: Pick<Ecard, 'personal_message_box'>, display: WidgetDisplay): string | undefined {
  if (!ecard.personal_message_box) return undefined;
  const message = input.personalMessage?.trim() ? input.personalMessage : undefined;
  if (!message && !display.personalMessageOptional) throw invalidParameter('personalMessage is required: write a few words to go with the card');
  return message;
}
