// One sample body of each event type a subscription or the ecard_shared URL may take, made of invented data: what
// GET /webhook/sample serves and what a test send fires (each area writes the sample of its own events).
import { MEMBER_EVENT_TYPES, type MemberEventType } from '../directory/events.ts';
import { sampleMemberEvent } from '../directory/sample.ts';
import { sampleCampaignCompleted } from '../campaigns/completed-event.ts';
import { sampleGiftClaimed } from '../rewards/claimed-event.ts';
import { ALL_OUTCOME_EVENT_TYPES, isOutcomeEventType, sampleOutcomeEvent } from '../sends/delivery/outcome-events.ts';

/** Every type a delivery may carry: the ecard_shared URL's, the member changes and the outcome events. */
export const WEBHOOK_EVENT_TYPES = ['ecard_shared', ...MEMBER_EVENT_TYPES, ...ALL_OUTCOME_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A sample ecard_shared body (an array with one recipient's element). */
export function sampleEcardShared(now: Date): Array<Record<string, unknown>> {
  return [
    {
      event_type: 'ecard_shared',
      type: 'email',
      sender_request_id: 'test-send.1',
      ecardid: 1001,
      widgetid: 2001,
      vanity_id: 'SampleVanity1',
      sender_name: 'Jane Doe',
      sender_email: 'jane.doe@example.com',
      recipient_name: 'John Roe',
      recipient_email: 'john.roe@example.com',
      personal_message: '<p>Happy birthday!</p>',
      locale: 'en',
      scheduled_to_be_sent_at: now.toISOString(),
      sent: false,
      opened: false,
      merge_tags: '',
      override_props: '',
      do_notify_on_open: false,
    },
  ];
}

/** The sample body of a type, as a delivery of that type carries it. */
export function sampleEvent(type: WebhookEventType, now: Date): object {
  if (type === 'ecard_shared') return sampleEcardShared(now);
  if (isOutcomeEventType(type)) return sampleOutcomeEvent(type, now);
  if (type === 'campaign_completed') return sampleCampaignCompleted(now);
  if (type === 'gift_claimed') return sampleGiftClaimed(now);
  return sampleMemberEvent(type satisfies MemberEventType, now);
}
