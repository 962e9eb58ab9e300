// The delivery log (list, one delivery with its attempts), replays of a delivery and test sends to an endpoint.
import { Op, type WhereOptions, type Attributes } from 'sequelize';
import { deliveryInProgress, deliveryRedacted, endpointRemoved, noEndpoint, notFound, serviceUnavailable } from '../../lib/errors.ts';
import type { WebhookAttempt } from '../../models/WebhookAttempt.ts';
import type { DeliveryStatus, WebhookDelivery } from '../../models/WebhookDelivery.ts';
import type { WebhookEndpoint } from '../../models/WebhookEndpoint.ts';
import type { WorkflowTarget } from '../../workflows/shared/start.ts';
import { replayWorkflowId, testWorkflowId } from '../../workflows/webhook-delivery/contract.ts';
import { startDeliveryWorkflow } from '../../workflows/webhook-delivery/lifecycle.ts';
import { MEMBER_EVENT_TYPES } from '../directory/events.ts';
import { isOutcomeEventType, maskedOutcomeBody, MEMBER_RECIPIENTS_SOURCE, outcomeRecipientValues } from '../sends/delivery/outcome-events.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { recordEvent, redactedPayload } from '../outbox.ts';
import { attemptTimeoutSeconds } from './attempts.ts';
import { ecardSharedEndpoint, findEndpoint } from './endpoints.ts';
import { sampleEvent, type WebhookEventType } from './samples.ts';

/** A delivery as presenters read it: the row's values, never the model. */
export type WebhookDeliveryView = Attributes<WebhookDelivery>;
/** An attempt as presenters read it: the row's values, never the model. */
export type WebhookAttemptView = Attributes<WebhookAttempt>;

export interface DeliveryQuery {
  page: number;
  perPage: number;
  status: DeliveryStatus | undefined;
  eventType: string | undefined;
  endpointId: number | undefined;
  dateFrom: Date | undefined;
  dateTo: Date | undefined;
}

/** A delivery as the log shows it: with the URL of its endpoint. */
export interface LoggedDelivery {
  delivery: WebhookDelivery;
  url: string;
}

async function withUrls(ctx: Pick<ServiceContext, 'models'>, deliveries: WebhookDelivery[]): Promise<LoggedDelivery[]> {
  const { models } = ctx;
  const endpoints = await models.WebhookEndpoint.findAll({ where: { id: [...new Set(deliveries.map((d) => d.endpoint_id))] }, attributes: ['id', 'url'] });
  const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
  return deliveries.map((delivery) => ({ delivery, url: urlOf.get(delivery.endpoint_id)! }));
}

/** The log, newest first. An `endpoint_id` filter is a reference: one that is not the account's is a 404 (removed ones still are). */
export async function listDeliveries(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: DeliveryQuery): Promise<{ rows: LoggedDelivery[]; count: number }> {
  const { models } = ctx;
  const where: WhereOptions = { account_id: accountId };
  if (query.status) Object.assign(where, { status: query.status });
  if (query.eventType) Object.assign(where, { event_type: query.eventType });
  if (query.endpointId !== undefined) {
    const endpoint = await models.WebhookEndpoint.findOne({ where: { id: query.endpointId, account_id: accountId }, attributes: ['id'] });
    if (!endpoint) throw notFound(`No webhook endpoint with id ${query.endpointId}`);
    Object.assign(where, { endpoint_id: query.endpointId });
  }
  if (query.dateFrom || query.dateTo) {
    Object.assign(where, { created_at: { ...(query.dateFrom ? { [Op.gte]: query.dateFrom } : {}), ...(query.dateTo ? { [Op.lte]: query.dateTo } : {}) } });
  }
  const { rows, count } = await models.WebhookDelivery.findAndCountAll({ where, order: [['id', 'DESC']], limit: query.perPage, offset: (query.page - 1) * query.perPage });
  return { rows: await withUrls(ctx, rows), count };
}

/** The deliveries of one event (the `ecard_shared` of a send: its event id is the send's id), oldest first. */
export async function eventDeliveries(ctx: Pick<ServiceContext, 'models'>, accountId: number, eventType: string, eventId: string): Promise<LoggedDelivery[]> {
  const { models } = ctx;
  const rows = await models.WebhookDelivery.findAll({ where: { account_id: accountId, event_type: eventType, event_id: eventId }, order: [['id', 'ASC']], limit: 100 });
  return withUrls(ctx, rows);
}

export interface DeliveryDetail {
  delivery: WebhookDelivery;
  /** The event's source (outcome events: `directory` when their recipients are members). */
  source: string;
  endpoint: WebhookEndpoint;
  body: string;
  redacted: boolean;
  attempts: WebhookAttempt[];
}

export async function findDelivery(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number): Promise<DeliveryDetail> {
  const { models } = ctx;
  const delivery = await models.WebhookDelivery.findOne({ where: { id, account_id: accountId } });
  if (!delivery) throw notFound(`No webhook delivery with id ${id}`);
  const endpoint = await models.WebhookEndpoint.findByPk(delivery.endpoint_id, { rejectOnEmpty: true });
  const event = await models.OutboxEvent.findByPk(delivery.outbox_id, { rejectOnEmpty: true });
  const attempts = await models.WebhookAttempt.findAll({ where: { delivery_id: delivery.id }, order: [['id', 'ASC']] });
  return { delivery, endpoint, source: event.source, body: event.payload, redacted: event.redacted_at !== null, attempts };
}

/** How a delivery of a member-change event is shown to a key without `directory: view`. */
export interface MemberMask {
  /** The body with the member as its id only (as an erasure leaves it). */
  body: string;
  /** A text (a receiver's response) with the member's values in it replaced by `[masked]`. */
  text(value: string | null): string | null;
}

const MASKED = '[masked]';

/** The mask of a member-change event's delivery (decisions.md, "Scopes across areas"); null for other events. */
export function memberMask(eventType: string, payload: string, source?: string): MemberMask | null {
  if (isOutcomeEventType(eventType)) {
    // An outcome event to directory members: their names and emails, as the sends log hides them.
    if (source !== MEMBER_RECIPIENTS_SOURCE) return null;
    return maskOf(maskedOutcomeBody(payload), outcomeRecipientValues(payload));
  }
  if (!(MEMBER_EVENT_TYPES as readonly string[]).includes(eventType)) return null;
  const member = (JSON.parse(payload) as { member?: Record<string, unknown> }).member ?? {};
  const values = Object.entries(member)
    .filter(([key]) => key !== 'id' && key !== 'disabled' && key !== 'updatedat')
    .flatMap(([, value]): unknown[] => (Array.isArray(value) ? (value as unknown[]) : [value]))
    .filter((value): value is string => typeof value === 'string' && value.length >= 3);
  return maskOf(redactedPayload(payload), values);
}

/** The masked body, and responses with each personal value (also JSON-escaped) replaced. */
function maskOf(body: string, personal: string[]): MemberMask {
  const values = personal.flatMap((value) => [value, JSON.stringify(value).slice(1, -1)]).sort((a, b) => b.length - a.length);
  return { body, text: (value) => (value === null ? null : values.reduce((text, one) => text.split(one).join(MASKED), value)) };
}

function target(ctx: ServiceContext): WorkflowTarget {
  if (!ctx.workflows) throw serviceUnavailable('Workflows cannot be started right now', { headers: { 'Retry-After': '5' } });
  return ctx.workflows;
}

/** Sends the same body (and event id) again, as a new attempt of the same delivery; the earlier attempts stay. */
export async function replayDelivery(ctx: ServiceContext, accountId: number, id: number): Promise<LoggedDelivery> {
  const { delivery, endpoint, redacted } = await findDelivery(ctx, accountId, id);
  if (redacted) throw deliveryRedacted(`Delivery ${id} carried personal data of an erased member; it was redacted and cannot be replayed`);
  if (endpoint.removed_at) throw endpointRemoved(`The endpoint of delivery ${id} was removed`);
  if (delivery.status === 'Pending' || delivery.status === 'Retrying') {
    throw deliveryInProgress(`Delivery ${id} is still ${delivery.status}; replay it once it has ended`);
  }
  await startDeliveryWorkflow(target(ctx), replayWorkflowId(accountId, delivery.id, crypto.randomUUID()), accountId, {
    deliveryId: delivery.id,
    trigger: 'replay',
    retryDelaysSeconds: [],
    attemptTimeoutSeconds: attemptTimeoutSeconds(ctx.config.webhooks.timeoutMs),
  });
  return { delivery, url: endpoint.url };
}

/** Fires a sample event at an endpoint (the ecard_shared URL by default), signed and logged, even while it is paused. */
export async function sendTest(ctx: ServiceContext, accountId: number, endpointId: number | undefined): Promise<LoggedDelivery> {
  const endpoint = endpointId === undefined ? await ecardSharedEndpoint(ctx, accountId) : await findEndpoint(ctx, accountId, endpointId);
  if (!endpoint) throw noEndpoint('No ecard_shared URL is set; set one or name an endpoint_id');
  const now = ctx.now();
  const eventType = endpoint.kind === 'ecard_shared' ? 'ecard_shared' : endpoint.event_type!;
  const body = sampleEvent(eventType as WebhookEventType, now);
  const eventId = endpoint.kind === 'ecard_shared' ? crypto.randomUUID() : (body as { event_id: string }).event_id;
  const delivery = await accountTransaction(ctx, accountId, async (transaction) => {
    // Already drained: a test goes to this endpoint only.
    const eventPk = await recordEvent(ctx, { accountId, eventId, eventType, source: 'test', memberId: null, occurredAt: now, body }, transaction);
    await ctx.models.OutboxEvent.update({ drained_at: now }, { where: { id: eventPk }, transaction });
    const created = await ctx.models.WebhookDelivery.create(
      { account_id: accountId, endpoint_id: endpoint.id, outbox_id: eventPk, event_id: eventId, event_type: eventType, trigger: 'test', status: 'Pending', error: null, finished_at: null, workflow_id: 'pending' },
      { transaction },
    );
    return created.update({ workflow_id: testWorkflowId(accountId, created.id), workflow_started: true }, { transaction });
  });
  await startDeliveryWorkflow(target(ctx), delivery.workflow_id, accountId, {
    deliveryId: delivery.id,
    trigger: 'test',
    retryDelaysSeconds: [],
    attemptTimeoutSeconds: attemptTimeoutSeconds(ctx.config.webhooks.timeoutMs),
  });
  return { delivery, url: endpoint.url };
}
