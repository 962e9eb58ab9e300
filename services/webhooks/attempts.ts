// What each webhook attempt does and how a delivery ends: sign and POST through the guarded client, record the
// attempt under its stable key, then settle the delivery, the endpoint's pause count and any pending redaction.
import { writeTransaction } from '../../lib/db.ts';
import { Op, UniqueConstraintError, type Transaction } from 'sequelize';
import { guardedPost } from '../../lib/guarded-http.ts';
import { SIGNATURE_HEADER, signatureHeader } from '../../lib/signing.ts';
import type { AttemptOutcome, AttemptTrigger, WebhookAttempt } from '../../models/WebhookAttempt.ts';
import type { DeliveryStatus } from '../../models/WebhookDelivery.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { redactFinished } from '../outbox.ts';
import { removeEndpoint } from './endpoints.ts';
import { notifyEndpointPaused } from './notices.ts';
import { signingSecrets } from './secrets.ts';

/** The service name followed by "Hook", as the spec asks. */
export const USER_AGENT = 'CardsvcHook';

/** The start-to-close timeout of a delivery's activities: the HTTP timeout plus 10 s for the database around it. */
export const attemptTimeoutSeconds = (timeoutMs: number): number => Math.ceil(timeoutMs / 1000) + 10;
/** Consecutive exhausted deliveries that pause a custom endpoint. */
export const PAUSE_AFTER = 3;
const RESPONSE_BODY_LIMIT = 8192;

export interface AttemptResult {
  result: AttemptOutcome;
  error: string | null;
  status: number | null;
  retryAfterSeconds: number | null;
}

/** Retry-After in seconds (a number of seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - now.getTime()) / 1000);
}

const resultOf = (a: WebhookAttempt): AttemptResult => ({ result: a.outcome, error: a.error, status: a.response_status, retryAfterSeconds: a.retry_after_seconds });

function classify(status: number | null, error: string | null, trigger: AttemptTrigger): Pick<AttemptResult, 'result' | 'error'> {
  if (status === null) return { result: 'failed', error: error ?? 'no response' };
  if (status >= 200 && status < 300) return { result: 'delivered', error: null };
  // A test send's 410 removes nothing; an event's 410 ends the delivery and the endpoint.
  if (status === 410 && trigger !== 'test') return { result: 'gone', error: 'HTTP 410 Gone' };
  return { result: 'failed', error: `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}` };
}

export async function attemptDelivery(ctx: ServiceContext, input: { deliveryId: number; trigger: AttemptTrigger; attemptKey: string }): Promise<AttemptResult> {
  const { models } = ctx;
  const recorded = await models.WebhookAttempt.findOne({ where: { attempt_key: input.attemptKey } });
  if (recorded) return resultOf(recorded);
  const delivery = await models.WebhookDelivery.findByPk(input.deliveryId, { rejectOnEmpty: true });
  const endpoint = await models.WebhookEndpoint.findByPk(delivery.endpoint_id, { rejectOnEmpty: true });
  if (input.trigger === 'auto' && endpoint.removed_at) return { result: 'stopped', error: 'endpoint removed', status: null, retryAfterSeconds: null };
  if (input.trigger === 'auto' && endpoint.paused_at) return { result: 'stopped', error: 'endpoint paused', status: null, retryAfterSeconds: null };
  const event = await models.OutboxEvent.findByPk(delivery.outbox_id, { rejectOnEmpty: true });

  const startedAt = ctx.now();
  const secrets = await signingSecrets(ctx, delivery.account_id, startedAt);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    [SIGNATURE_HEADER]: signatureHeader(event.payload, secrets, Math.floor(startedAt.getTime() / 1000)),
    'X-SVC-Event-Id': delivery.event_id,
    'X-SVC-Delivery-Id': String(delivery.id),
  };
  const response = await guardedPost(endpoint.url, event.payload, headers, {
    allowPrivate: ctx.config.webhooks.allowPrivateTargets,
    timeoutMs: ctx.config.webhooks.timeoutMs,
    maxResponseBytes: RESPONSE_BODY_LIMIT,
  });
  const { result, error } = classify(response.status, response.error, input.trigger);
  const retryAfter = response.status === 429 ? retryAfterSeconds(response.responseHeaders['retry-after'], startedAt) : null;
  try {
    await writeTransaction(models.sequelize, async (transaction) => {
      await models.WebhookAttempt.create(
        {
          delivery_id: delivery.id,
          attempt_key: input.attemptKey,
          trigger: input.trigger,
          request_headers: JSON.stringify(headers),
          response_status: response.status,
          response_body: response.status === null ? null : response.responseBody,
          error: error?.slice(0, 500) ?? null,
          outcome: result,
          retry_after_seconds: retryAfter,
          duration_ms: Math.round(response.durationMs),
          started_at: startedAt,
        },
        { transaction },
      );
      await models.WebhookDelivery.increment('attempts', { where: { id: delivery.id }, transaction });
    });
  } catch (err) {
    // The same attempt recorded by an earlier run of this activity: that record stands.
    if (!(err instanceof UniqueConstraintError)) throw err;
    return resultOf((await models.WebhookAttempt.findOne({ where: { attempt_key: input.attemptKey } }))!);
  }
  return { result, error, status: response.status, retryAfterSeconds: retryAfter };
}

const UNFINISHED: DeliveryStatus[] = ['Pending', 'Retrying'];

export async function markRetrying(ctx: ServiceContext, input: { deliveryId: number; trigger: AttemptTrigger; error: string | null }): Promise<void> {
  if (input.trigger === 'replay') return;
  await ctx.models.WebhookDelivery.update({ status: 'Retrying', error: input.error }, { where: { id: input.deliveryId, status: UNFINISHED } });
}

function endError(result: AttemptOutcome, error: string | null, trigger: AttemptTrigger): string | null {
  if (result === 'delivered') return null;
  if (result === 'failed' && trigger === 'auto') return `retries exhausted: ${error ?? 'failed'}`;
  return error;
}

/**
 * Settles a delivery once (a conditional update, so a repeated activity changes nothing twice): Delivered
 * resets the endpoint's count; an exhausted delivery raises it and, at PAUSE_AFTER, pauses a custom endpoint
 * and emails the owner once; a 410 removes a subscription, or pauses the ecard_shared URL. Replays and tests
 * never move the count. Returns the delivery's status.
 */
export async function finishDelivery(
  ctx: ServiceContext,
  input: { deliveryId: number; trigger: AttemptTrigger; result: AttemptOutcome; error: string | null },
): Promise<DeliveryStatus> {
  const { models } = ctx;
  const now = ctx.now();
  const delivered = input.result === 'delivered';
  const { account_id: accountId, outbox_id: outboxId } = await models.WebhookDelivery.findByPk(input.deliveryId, { rejectOnEmpty: true, attributes: ['account_id', 'outbox_id'] });
  // The account first, as every transaction that writes its events or notices does (no lock-order deadlocks).
  const status = await accountTransaction(ctx, accountId, async (transaction) => {
    const delivery = await models.WebhookDelivery.findByPk(input.deliveryId, { rejectOnEmpty: true, transaction });
    if (input.trigger === 'replay') {
      // A replay adds an attempt; only a success changes how the delivery ended.
      if (delivered) await delivery.update({ status: 'Delivered', error: null, finished_at: now }, { transaction });
      return delivered ? 'Delivered' : delivery.status;
    }
    const ended: DeliveryStatus = delivered ? 'Delivered' : 'Failed';
    const [changed] = await models.WebhookDelivery.update(
      { status: ended, error: endError(input.result, input.error, input.trigger), finished_at: now },
      { where: { id: delivery.id, status: UNFINISHED }, transaction },
    );
    if (changed === 0 || input.trigger !== 'auto') return changed === 0 ? delivery.status : ended;
    const endpoint = await models.WebhookEndpoint.findByPk(delivery.endpoint_id, { rejectOnEmpty: true, transaction });
    if (delivered) {
      await models.WebhookEndpoint.update({ consecutive_failures: 0 }, { where: { id: endpoint.id }, transaction });
    } else if (input.result === 'gone') {
      if (endpoint.kind === 'member_change') await removeEndpoint(ctx, endpoint.id, now, transaction);
      else await pause(ctx, endpoint.id, now, transaction, 'it answered 410 Gone');
    } else if (input.result === 'failed') {
      await models.WebhookEndpoint.increment('consecutive_failures', { where: { id: endpoint.id }, transaction });
      await pause(ctx, endpoint.id, now, transaction, `${PAUSE_AFTER} deliveries in a row failed after every retry`, PAUSE_AFTER);
    }
    return ended;
  });
  await redactFinished(ctx, { ids: [outboxId] }, now);
  return status;
}

// Pauses a custom endpoint at most once (the update is conditional), and only then emails the owner.
async function pause(ctx: ServiceContext, endpointId: number, now: Date, transaction: Transaction, reason: string, atCount = 0): Promise<void> {
  const [paused] = await ctx.models.WebhookEndpoint.update(
    { paused_at: now },
    {
      where: { id: endpointId, paused_at: { [Op.is]: null }, removed_at: { [Op.is]: null }, integration: false, consecutive_failures: { [Op.gte]: atCount } },
      transaction,
    },
  );
  if (!paused) return;
  await notifyEndpointPaused(ctx, endpointId, reason, now, transaction);
  // The mail queue's background pass sends the notice soon after the commit.
  transaction.afterCommit(() => ctx.nudge());
}
