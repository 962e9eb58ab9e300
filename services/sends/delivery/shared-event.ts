// The body of an `ecard_shared` event: one element per recipient of a send, single (accept) or bulk (the bulk
// sender), as the spec names its fields.
import type { Ecard } from '../../../models/Ecard.ts';
import type { Send } from '../../../models/Send.ts';

/** What a widget send adds: the visitor's opt-in and the directory member they proved to be. */
const widgetFields = (send: Send) => (send.origin === 'widget' ? { opted_in: send.opted_in === true, sender_teammemberid: send.sender_member_id ?? null } : {});

/**
 * One element per recipient; `vanity_id` is that recipient's own page id. `type` is the widget's share mode for a
 * widget send; an API send's is `email` or `ecard_copy_link` by its mode.
 */
export function sharedEvent(send: Send, ecard: Pick<Ecard, 'id' | 'widget_id'>, recipients: Array<{ name: string; email: string | null; pageId: string }>) {
  return recipients.map((r, i) => ({
    event_type: 'ecard_shared',
    type: send.origin === 'widget' && send.share_type ? send.share_type : send.mode === 'share' ? 'ecard_copy_link' : 'email',
    sender_request_id: `${send.send_id}.${i + 1}`,
    ecardid: ecard.id,
    widgetid: ecard.widget_id,
    vanity_id: r.pageId,
    sender_name: send.sender_name,
    sender_email: send.sender_email,
    recipient_name: r.name,
    recipient_email: r.email ?? '',
    personal_message: send.personal_message ?? '',
    locale: send.locale,
    scheduled_to_be_sent_at: send.send_at.toISOString(),
    sent: send.mode === 'share',
    opened: false,
    merge_tags: send.merge_tags ?? '',
    override_props: send.override_props ?? '',
    do_notify_on_open: send.notify_on_open === true,
    ...widgetFields(send),
  }));
}
