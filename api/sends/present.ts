// What send-ecard answers for a send, by mode and state (the flat fields beside `success` and `messages`).
import { providerFailed } from '../../lib/errors.ts';
import { pageUrl } from '../../services/sends/pages.ts';
import type { Send } from '../../services/sends/send-ecard.ts';

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
