// What send-ecard answers for a send, by mode and state (the flat fields beside `success` and `messages`), and a
// send as the reading endpoints show it.
import type { z } from 'zod';
import { providerFailed } from '../../lib/errors.ts';
import { recipientOutcome, type LoggedSend as Logged } from '../../services/sends/log/log.ts';
import { pageUrl } from '../../services/sends/card-page/pages.ts';
import type { SendView as Send } from '../../services/sends/accept/send-ecard.ts';
import type { LoggedSend } from './schema.ts';

export type SendAnswer = Record<string, unknown> & { sendId: string };

/** A send that failed is the provider's error (502); one still in flight answers `status: "pending"`. */
export function presentSend(send: Send, publicBaseUrl: string): SendAnswer {
  if (send.mode === 'share') return { sendId: send.send_id, shareUrl: pageUrl(publicBaseUrl, send.stat_vanity_id), statVanityId: send.stat_vanity_id };
  if (send.status === 'scheduled' || send.status === 'canceled') {
    return { sendId: send.send_id, status: send.status, scheduled_to_be_sent_at: send.send_at.toISOString(), emailsSent: 0 };
  }
  if (send.status === 'failed') throw providerFailed(send.error ?? 'The email could not be sent', { extra: { sendId: send.send_id } });
  return send.status === 'pending' ? { sendId: send.send_id, emailsSent: send.emails_sent, status: 'pending' } : { sendId: send.send_id, emailsSent: send.emails_sent };
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A send with its recipients (the log's view of it); `seesDirectory`: the key may read members' data. */
export function presentLoggedSend({ send, recipients, toMembers }: Logged, seesDirectory: boolean): z.input<typeof LoggedSend> {
  const sentAt = recipients.reduce<Date | null>((last, r) => (r.status === 'sent' && r.finished_at && (!last || r.finished_at > last) ? r.finished_at : last), null);
  return {
    sendId: send.send_id,
    status: send.status,
    origin: send.origin,
    ecardid: send.ecard_id,
    widgetid: send.widget_id,
    campaign_id: send.origin === 'campaign' ? send.origin_id : null,
    automation_id: send.origin === 'automation' ? send.origin_id : null,
    createdat: send.created_at.toISOString(),
    scheduled_to_be_sent_at: send.send_at.toISOString(),
    sent_at: iso(sentAt),
    recipients: recipients.map((r) => recipientOutcome(r, toMembers && !seesDirectory)),
  };
}
