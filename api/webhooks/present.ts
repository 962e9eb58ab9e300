// How endpoints, deliveries and attempts are shown.
import type { z } from 'zod';
import { memberMask, type DeliveryDetail as Detail, type MemberMask, type WebhookAttemptView as WebhookAttempt, type WebhookDeliveryView as WebhookDelivery } from '../../services/webhooks/deliveries.ts';
import type { WebhookEndpointView as WebhookEndpoint } from '../../services/webhooks/endpoints.ts';
import type { Attempt, Delivery, DeliveryDetail, Endpoint } from './schema.ts';

export function presentEndpoint(e: WebhookEndpoint): z.input<typeof Endpoint> {
  return {
    id: e.id,
    kind: e.kind,
    event_type: e.event_type,
    url: e.url,
    integration: e.integration,
    state: e.paused_at ? 'paused' : 'active',
    consecutive_failures: e.consecutive_failures,
    paused_at: e.paused_at?.toISOString() ?? null,
    createdat: e.created_at.toISOString(),
  };
}

export function presentDelivery(d: WebhookDelivery, url: string): z.input<typeof Delivery> {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    endpoint_id: d.endpoint_id,
    url,
    trigger: d.trigger,
    status: d.status,
    error: d.error,
    attempts: d.attempts,
    workflow_id: d.workflow_id,
    createdat: d.created_at.toISOString(),
    finishedat: d.finished_at?.toISOString() ?? null,
  };
}

function presentAttempt(a: WebhookAttempt, mask: MemberMask | null): z.input<typeof Attempt> {
  return {
    id: a.id,
    trigger: a.trigger,
    request_headers: JSON.parse(a.request_headers) as Record<string, string>,
    response_status: a.response_status,
    response_body: mask ? mask.text(a.response_body) : a.response_body,
    error: a.error,
    outcome: a.outcome,
    duration_ms: a.duration_ms,
    startedat: a.started_at.toISOString(),
  };
}

/**
 * A member-change event's member, or an outcome event's member recipients (body, and their values echoed in
 * responses), are masked for a key without `directory: view`; the console (an owner's session) sees them whole.
 */
export function presentDeliveryDetail(d: Detail, seesDirectory = true): z.input<typeof DeliveryDetail> {
  const mask = seesDirectory ? null : memberMask(d.delivery.event_type, d.body, d.source);
  return {
    ...presentDelivery(d.delivery, d.endpoint.url),
    body: mask ? mask.body : d.body,
    redacted: d.redacted,
    attempt_log: d.attempts.map((a) => presentAttempt(a, mask)),
  };
}
