// Contracts of the widget's send (POST /v2/widget/{vanity_id}/send, and the no-JavaScript form's fields flattened
// to the same shape), and what a send answers (send-ecard's flat fields plus a fresh form token).
import { z } from 'zod';
import { SHARE_TYPES } from '../../../models/Send.ts';
import { PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG } from '../../../services/sends/accept/personal-message.ts';
import type { WidgetSent } from '../../../services/widgets/public/send.ts';

// Any text: an unknown vanity id is the same 404 as a private widget's.
export const WidgetVanityParams = z.object({ vanity_id: z.string() });

const person = { name: z.string().trim().max(200), email: z.string().trim().max(254) };

export const WidgetSendBody = z.object({
  form_token: z.string().min(1).max(1024).describe('the token of GET /v2/widget/{vanity_id} (or of the last send): ≤ 2 h old, else 400 form_expired'),
  fax_number: z.string().max(1000).optional().describe('the honeypot: left empty by people'),
  ecard: z.string().min(1).max(32).describe('the eCard\'s vanity id'),
  share_mode: z.enum(SHARE_TYPES),
  sender: z.object({ name: person.name.min(1), email: person.email.min(1) }),
  // Bounded here; the widget's maxRecipients (≤ 50) answers toomany.
  recipients: z.array(z.object({ name: person.name, email: person.email.default('') })).max(100).describe('1..maxRecipients for email; a share link keeps the first as its name'),
  personalMessage: z.string().max(PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG).optional().describe('HTML, sanitized; required unless wconfig.personalMessageOptional or the card has no message box'),
  sendAt: z.iso
    .datetime({ offset: true, error: 'expected an ISO 8601 date-time with Z or an offset' })
    .transform((s) => new Date(s))
    .optional()
    .describe('email only: schedules the send (a card that canSchedule, within wconfig.scheduleMaxDays); a forced predefined schedule wins'),
  getReadReceipt: z.boolean().optional().describe('honoured when wconfig.readReceiptEnabled'),
  optedIn: z.boolean().optional(),
  widget_session: z.string().max(1024).optional().describe('POST .../verify/confirm\'s token: required when the widget verifies senders'),
});

export const WidgetSendAnswer = z.object({
  sendId: z.string(),
  emailsSent: z.number().int().optional().describe('email now: the emails accepted (the widget never waits for the dispatch)'),
  status: z.literal('scheduled').optional(),
  scheduled_to_be_sent_at: z.string().optional(),
  shareUrl: z.string().optional(),
  statVanityId: z.string().optional(),
  form_token: z.string().describe('a fresh form token ("Send another")'),
});

/** The flat fields of a send's answer. */
export function presentWidgetSend(sent: WidgetSent): z.input<typeof WidgetSendAnswer> {
  if (sent.mode === 'share') return { sendId: sent.sendId, shareUrl: sent.shareUrl, statVanityId: sent.statVanityId, form_token: sent.formToken };
  if (sent.mode === 'schedule') {
    return { sendId: sent.sendId, status: 'scheduled', scheduled_to_be_sent_at: sent.sendAt.toISOString(), emailsSent: 0, form_token: sent.formToken };
  }
  return { sendId: sent.sendId, emailsSent: sent.emailsSent, form_token: sent.formToken };
}
