// Contracts of the webhook endpoints: member-change subscriptions, the ecard_shared URL, endpoints, the delivery log.
import { z } from 'zod';
import { CampaignCounts } from '../campaigns/schema.ts';
import { BOUNCE_KINDS } from '../../models/SendRecipient.ts';
import { DELIVERY_STATUSES } from '../../models/WebhookDelivery.ts';
import { MEMBER_EVENT_TYPES } from '../../services/directory/events.ts';
import { SEND_ORIGINS } from '../../services/sends/log/log.ts';
import { ALL_OUTCOME_EVENT_TYPES, OUTCOME_EVENT_TYPES } from '../../services/sends/delivery/outcome-events.ts';
import { LoggedRecipient } from '../sends/schema.ts';
import { MemberEvent } from '../directory/schema.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../services/webhooks/samples.ts';
import type { DeliveryQuery } from '../../services/webhooks/deliveries.ts';
import { numericId, flag, pageQuery, PageMeta, resource, named } from '../schema-helpers.ts';

const id = numericId();
const url = z.string().trim().max(2048);

export const SubscribeBody = z.object({
  event_type: z.enum([...MEMBER_EVENT_TYPES, ...ALL_OUTCOME_EVENT_TYPES]).describe('a member-change event, or (an extension of the spec) an outcome event, which also needs sends: view'),
  hookUrl: url.min(1).describe('https (http only where private targets are allowed); checked against private addresses'),
  integration: flag.default(false).describe('an integration platform\'s hook (never paused; a 410 removes it); zapier.com, make.com and n8n.cloud hosts count as such'),
});
export const SubscribeAnswer = z.object({ id: z.number().int() });

export const UnsubscribeBody = z.object({ id: resource('webhook_endpoint', z.number().int().positive()) });
export const UnsubscribeAnswer = z.object({ id: z.number().int(), removed: z.literal(true) });

export const Endpoint = z.object({
  id: z.number().int(),
  kind: z.enum(['ecard_shared', 'member_change']),
  event_type: z.string().nullable(),
  url: z.string(),
  integration: z.boolean(),
  state: z.enum(['active', 'paused']),
  consecutive_failures: z.number().int().describe('consecutive deliveries that failed after every retry (3 pause a custom endpoint)'),
  paused_at: z.string().nullable(),
  createdat: z.string(),
});
export const EndpointList = z.array(Endpoint);

export const EcardSharedUrlBody = z.object({ url: z.string().max(2048).describe('blank disables the ecard_shared webhook') });
export const EcardSharedUrlAnswer = z.object({ endpoint: Endpoint.nullable() });

export const EnableBody = z.object({ endpoint_id: resource('webhook_endpoint', z.number().int().positive()) });

const isoDate = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time' }).transform((s) => new Date(s));

export const DeliveryListQuery = pageQuery().extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event_type: z.string().max(64).optional(),
  endpoint_id: resource('webhook_endpoint', id).optional(),
  dateFrom: isoDate.optional(),
  dateTo: isoDate.optional(),
});

/** The log's filters as the delivery service takes them (the key API, the console API and the console's page). */
export function deliveryQueryOf(query: z.output<typeof DeliveryListQuery>): DeliveryQuery {
  return { page: query.page, perPage: query.perPage, status: query.status, eventType: query.event_type, endpointId: query.endpoint_id, dateFrom: query.dateFrom, dateTo: query.dateTo };
}

export const Delivery = named('WebhookDelivery', z.object({
  id: z.number().int(),
  event_id: z.string(),
  event_type: z.string(),
  endpoint_id: z.number().int(),
  url: z.string(),
  trigger: z.enum(['auto', 'test']),
  status: z.enum(DELIVERY_STATUSES),
  error: z.string().nullable(),
  attempts: z.number().int(),
  workflow_id: z.string().describe('the Temporal workflow of the automatic attempts (replays have their own)'),
  createdat: z.string(),
  finishedat: z.string().nullable(),
}));
export const DeliveryList = z.array(Delivery);
export { PageMeta };

export const Attempt = z.object({
  id: z.number().int(),
  trigger: z.enum(['auto', 'replay', 'test']),
  request_headers: z.record(z.string(), z.string()),
  response_status: z.number().int().nullable(),
  response_body: z.string().nullable().describe('at most 8 KB; for a member-change event and a key without directory: view, the member’s values in it read [masked]'),
  error: z.string().nullable(),
  outcome: z.enum(['delivered', 'failed', 'gone', 'stopped']),
  duration_ms: z.number().int(),
  startedat: z.string(),
});

// Delivery's fields spread rather than extended: an extended named schema would be documented as an allOf.
export const DeliveryDetail = z.object({
  ...Delivery.shape,
  body: z.string().describe('the exact bytes sent on every attempt; for a member-change event and a key without directory: view, the body with member reduced to its id'),
  redacted: z.boolean().describe('the personal data of an erased member was removed; such a delivery cannot be replayed'),
  attempt_log: z.array(Attempt),
});

export const DeliveryIdParams = z.object({ id: resource('webhook_delivery', id) });
export const ReplayBody = z.object({ id: resource('webhook_delivery', z.number().int().positive()) });
export const TestBody = z.object({ endpoint_id: resource('webhook_endpoint', z.number().int().positive()).optional().describe('default: the ecard_shared URL') });

/** One recipient's element of an ecard_shared delivery (the body is an array of them). */
export const EcardSharedEvent = named('EcardSharedEvent', z.object({
  event_type: z.literal('ecard_shared'),
  type: z.string().describe('share method: email, ecard_copy_link, facebook, …'),
  sender_request_id: z.string().describe('unique per recipient, reused on retries: de-duplicate by it'),
  ecardid: z.number().int(),
  widgetid: z.number().int(),
  vanity_id: z.string(),
  sender_name: z.string(),
  sender_email: z.string(),
  recipient_name: z.string(),
  recipient_email: z.string(),
  personal_message: z.string().describe('HTML'),
  locale: z.string(),
  scheduled_to_be_sent_at: z.string(),
  sent: z.boolean(),
  opened: z.boolean(),
  merge_tags: z.string(),
  override_props: z.string(),
  do_notify_on_open: z.boolean().describe('whether the sender asked for a read receipt (send-ecard\'s opennotification)'),
  opted_in: z.boolean().optional().describe('widget sends only: the sender ticked the opt-in box'),
  sender_teammemberid: z.number().int().nullable().optional().describe('widget sends only: the directory member the sender proved to be (verification), else null'),
}));

/** The `send` of an outcome event. */
const OutcomeSend = z.object({
  sendId: z.string().nullable().describe('null when the recipients belong to several sends of one campaign or automation (each recipient names its own)'),
  origin: z.enum(SEND_ORIGINS),
  ecardid: z.number().int(),
  widgetid: z.number().int(),
  campaign_id: z.number().int().nullable(),
  automation_id: z.number().int().nullable(),
});

/** What came back for a recipient (ecard_bounced), as the bounce listener parsed it. */
const BounceDetail = z.object({
  kind: z.enum(BOUNCE_KINDS).describe('hard: a permanent failure (5.x.x), the address is suppressed; soft: a temporary one (4.x.x), counted, not suppressed; complaint: the recipient reported the email (ARF), the address is suppressed'),
  status: z.string().nullable().describe('the enhanced status code of a DSN (5.1.1); null for a complaint'),
  diagnostic: z.string().nullable().describe('the DSN\'s Diagnostic-Code or the complaint\'s Feedback-Type, shortened, addresses replaced by <address>'),
});

/** An outcome event (an extension of the spec): what became of up to 100 recipients of one send, or of one campaign's or automation's sends. */
export const OutcomeEvent = named('OutcomeEvent', z.object({
  event_id: z.string().describe('UUID, the same on every attempt and on replay: de-duplicate by it'),
  event_type: z.enum(OUTCOME_EVENT_TYPES).describe('ecard_delivered: the SMTP server took the email (250); ecard_opened: the recipient opened the card (the open action); ecard_failed: the email failed (including outcome_unknown); ecard_bounced: a bounce or complaint came back after the hand-off (BOUNCE_DOMAIN)'),
  timestamp: z.string().describe('ISO 8601 UTC'),
  send: OutcomeSend,
  recipients: z
    .array(
      LoggedRecipient.extend({
        sendId: z.string().describe('the send this recipient belongs to'),
        bounce: BounceDetail.optional().describe('ecard_bounced only'),
      }),
    )
    .max(100),
}));

const CAMPAIGN_STATUSES = ['sent', 'failed', 'canceled'] as const;

/** `campaign_completed` (an extension of the spec): a campaign ended, once per campaign, with its counts as its last write saw them. */
export const CampaignCompletedEvent = named('CampaignCompletedEvent', z.object({
  event_id: z.string().describe('UUID, the same on every attempt and on replay: de-duplicate by it'),
  event_type: z.literal('campaign_completed'),
  timestamp: z.string().describe('ISO 8601 UTC'),
  campaign: z.object({
    id: z.number().int(),
    name: z.string(),
    status: z.enum(CAMPAIGN_STATUSES).describe('sent (something went out or may have), failed (nothing did), canceled (canceled, or sending suspended)'),
    counts: CampaignCounts.describe('as the campaign\'s findOne shows them; a canceled campaign\'s pending are emails already under way'),
  }),
}));

/** `gift_claimed` (an extension of the spec): a gift's recipient revealed its code on the claim page, once per order. */
export const GiftClaimedEvent = named('GiftClaimedEvent', z.object({
  event_id: z.string().describe('UUID, the same on every attempt and on replay: de-duplicate by it'),
  event_type: z.literal('gift_claimed'),
  timestamp: z.string().describe('ISO 8601 UTC'),
  order: z.object({
    id: z.number().int().describe('the order id of GET /gift-card/listOrders'),
    code_masked: z.string().describe('**** and the code\'s last 4 (**** alone for a code under 12 characters)'),
    amount: z.number(),
    currency: z.string(),
    claimed_at: z.string().describe('ISO 8601 UTC'),
  }),
  send: OutcomeSend.nullable().describe('the send that carried the gift (null for an order without one)'),
}));

/** What a delivery of each type carries: one schema serves the sample, the OpenAPI document's webhooks and the tests of real deliveries. */
export const EVENT_BODIES: Record<WebhookEventType, z.ZodType> = {
  ecard_shared: z.array(EcardSharedEvent),
  team_member_created: MemberEvent,
  team_member_updated: MemberEvent,
  team_member_deactivated: MemberEvent,
  team_member_deleted: MemberEvent,
  ecard_delivered: OutcomeEvent,
  ecard_opened: OutcomeEvent,
  ecard_failed: OutcomeEvent,
  ecard_bounced: OutcomeEvent,
  campaign_completed: CampaignCompletedEvent,
  gift_claimed: GiftClaimedEvent,
};

export const SampleQuery = z.object({ event_type: z.enum(WEBHOOK_EVENT_TYPES).describe('ecard_shared, a member-change event or an outcome event') });
export const SampleEvent = z
  .union([z.array(EcardSharedEvent), MemberEvent, OutcomeEvent, CampaignCompletedEvent, GiftClaimedEvent])
  .describe('the body a delivery of that type carries (ecard_shared: an array of one element per recipient)');
