// Turns committed events into deliveries and starts their workflows. Each step is idempotent, so a crash at
// any point loses nothing and starts nothing twice: an event is claimed and fanned out in one transaction
// (one delivery row per event and endpoint), and a delivery's workflow start is retried until it is recorded.
import { Op } from 'sequelize';
import { writeTransaction } from '../../lib/db.ts';
import { notFound } from '../../lib/errors.ts';
import type { OutboxEvent } from '../../models/OutboxEvent.ts';
import type { WebhookEndpoint } from '../../models/WebhookEndpoint.ts';
import type { WorkflowTarget } from '../../workflows/shared/start.ts';
import { deliveryWorkflowId } from '../../workflows/webhook-delivery/contract.ts';
import { startDeliveryWorkflow } from '../../workflows/webhook-delivery/lifecycle.ts';
import { shareAccount } from '../account-lock.ts';
import { MEMBER_EVENT_TYPES } from '../directory/events.ts';
import type { ServiceContext } from '../context.ts';
import { redactFinished } from '../outbox.ts';
import { attemptTimeoutSeconds } from './attempts.ts';

const BATCH = 100;

// An event goes to the endpoints that existed when it happened; a paused endpoint's delivery is logged Failed.
const endpointKind = (event: OutboxEvent) => (event.event_type === 'ecard_shared' ? { kind: 'ecard_shared' } : { kind: 'member_change', event_type: event.event_type });

async function fanOut(ctx: ServiceContext, event: OutboxEvent): Promise<void> {
  const { models } = ctx;
  // Under the account's shared lock, taken first as every write that records events takes the account's lock, so
  // locks come in one order (the account first) and fanning out cannot deadlock with a member change writing its
  // event (it did on MariaDB, over the account row and the outbox index, when the fan-out took no account lock).
  // Shared, not exclusive (issue 35 item 5): it still waits for an endpoint's subscription (exclusive) to commit,
  // so the endpoints read are all that existed, and the writers under the exclusive lock (deactivate, erase) wait
  // for it; the account's upserts (shared too) no longer wait for each event's fan-out. Two fan-outs of one event
  // are kept apart by the claim below, and nothing here writes the account's row (no lock to upgrade).
  await writeTransaction(models.sequelize, async (transaction) => {
    if (!(await shareAccount(ctx, event.account_id, transaction))) throw notFound(`No account with id ${event.account_id}`);
    const now = ctx.now();
    const [claimed] = await models.OutboxEvent.update({ drained_at: now }, { where: { id: event.id, drained_at: { [Op.is]: null } }, transaction });
    if (claimed === 0) return;
    const endpoints = await models.WebhookEndpoint.findAll({
      where: { account_id: event.account_id, ...endpointKind(event), removed_at: { [Op.is]: null }, created_at: { [Op.lte]: event.occurred_at } },
      transaction,
    });
    await models.WebhookDelivery.bulkCreate(
      endpoints.map((endpoint) => ({
        account_id: event.account_id,
        endpoint_id: endpoint.id,
        outbox_id: event.id,
        event_id: event.event_id,
        event_type: event.event_type,
        trigger: 'auto' as const,
        status: endpoint.paused_at ? ('Failed' as const) : ('Pending' as const),
        error: endpoint.paused_at ? 'endpoint paused' : null,
        finished_at: endpoint.paused_at ? now : null,
        workflow_id: deliveryWorkflowId(event.account_id, event.event_id, endpoint.id),
      })),
      { transaction, ignoreDuplicates: true },
    );
    if (event.redact_after_delivery) await redactFinished(ctx, { ids: [event.id] }, now, transaction);
  });
}

const takes = (endpoint: WebhookEndpoint, event: OutboxEvent) =>
  endpoint.account_id === event.account_id && endpoint.kind === 'member_change' && endpoint.event_type === event.event_type && endpoint.created_at <= event.occurred_at;

/**
 * The events no endpoint takes, marked drained together with one conditional update and no account lock (issue 35
 * item 5: an account's member changes no longer queue behind a fan-out of each that makes nothing); the others
 * are left for fanOut. Only member events: each is written under the account's lock (an upsert's shared one, the
 * other member writes' exclusive one), held from before the event's time is taken to its commit, as a
 * subscription's writer holds the exclusive lock from before its endpoint's `created_at` to its commit. The two
 * never overlap, so an endpoint created at or before the event had committed before the event did, and this read
 * (after the event's) sees it. Other events (`ecard_shared` is written by accepts without the account's lock) and
 * those to redact once delivered (fanOut redacts them) always go through fanOut.
 */
async function drainUntaken(ctx: ServiceContext, events: OutboxEvent[]): Promise<OutboxEvent[]> {
  const { models } = ctx;
  const candidates = events.filter((e) => (MEMBER_EVENT_TYPES as readonly string[]).includes(e.event_type) && !e.redact_after_delivery);
  if (candidates.length === 0) return events;
  const endpoints = await models.WebhookEndpoint.findAll({
    where: { account_id: [...new Set(candidates.map((e) => e.account_id))], removed_at: { [Op.is]: null } },
    attributes: ['id', 'account_id', 'kind', 'event_type', 'created_at'],
  });
  const untaken = new Set(candidates.filter((event) => !endpoints.some((endpoint) => takes(endpoint, event))));
  if (untaken.size > 0) {
    await models.OutboxEvent.update({ drained_at: ctx.now() }, { where: { id: [...untaken].map((e) => e.id), drained_at: { [Op.is]: null } } });
  }
  return events.filter((e) => !untaken.has(e));
}

async function startPending(ctx: ServiceContext, target: WorkflowTarget): Promise<number> {
  const { models } = ctx;
  const pending = await models.WebhookDelivery.findAll({ where: { workflow_started: false, status: 'Pending', trigger: 'auto' }, order: [['id', 'ASC']], limit: BATCH });
  for (const delivery of pending) {
    await startDeliveryWorkflow(target, delivery.workflow_id, delivery.account_id, {
      deliveryId: delivery.id,
      trigger: 'auto',
      retryDelaysSeconds: ctx.config.webhooks.retryDelaysSeconds,
      attemptTimeoutSeconds: attemptTimeoutSeconds(ctx.config.webhooks.timeoutMs),
    });
    await models.WebhookDelivery.update({ workflow_started: true }, { where: { id: delivery.id } });
  }
  return pending.length;
}

/**
 * One pass (a background pass of the worker): drain waiting events, start waiting workflows, redact what
 * finished. True when there may be more. Without Temporal, events are fanned out and their starts wait.
 */
export async function drainOutbox(ctx: ServiceContext): Promise<boolean> {
  const events = await ctx.models.OutboxEvent.findAll({ where: { drained_at: { [Op.is]: null } }, order: [['id', 'ASC']], limit: BATCH });
  for (const event of await drainUntaken(ctx, events)) await fanOut(ctx, event);
  const started = ctx.workflows ? await startPending(ctx, ctx.workflows) : 0;
  await redactFinished(ctx, {}, ctx.now());
  return events.length === BATCH || started === BATCH;
}
