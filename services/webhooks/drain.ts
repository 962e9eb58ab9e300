// Turns committed events into deliveries and starts their workflows. Each step is idempotent, so a crash at
// any point loses nothing and starts nothing twice: an event is claimed and fanned out in one transaction
// (one delivery row per event and endpoint), and a delivery's workflow start is retried until it is recorded.
import { Op } from 'sequelize';
import type { OutboxEvent } from '../../models/OutboxEvent.ts';
import type { WorkflowTarget } from '../../workflows/shared/start.ts';
import { deliveryWorkflowId } from '../../workflows/webhook-delivery/contract.ts';
import { startDeliveryWorkflow } from '../../workflows/webhook-delivery/lifecycle.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { redactFinished } from '../outbox.ts';
import { attemptTimeoutSeconds } from './attempts.ts';

const BATCH = 100;

// An event goes to the endpoints that existed when it happened; a paused endpoint's delivery is logged Failed.
async function fanOut(ctx: ServiceContext, event: OutboxEvent): Promise<void> {
  const { models } = ctx;
  // Under the account's lock, like every write that records events: locks are taken in one order (the account
  // first), so fanning out cannot deadlock with a member change writing its event (it did on MariaDB).
  await accountTransaction(models, event.account_id, async (transaction) => {
    const now = ctx.now();
    const [claimed] = await models.OutboxEvent.update({ drained_at: now }, { where: { id: event.id, drained_at: { [Op.is]: null } }, transaction });
    if (claimed === 0) return;
    const kind = event.event_type === 'ecard_shared' ? { kind: 'ecard_shared' } : { kind: 'member_change', event_type: event.event_type };
    const endpoints = await models.WebhookEndpoint.findAll({
      where: { account_id: event.account_id, ...kind, removed_at: { [Op.is]: null }, created_at: { [Op.lte]: event.occurred_at } },
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
    if (event.redact_after_delivery) await redactFinished(models, { ids: [event.id] }, now, transaction);
  });
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
  for (const event of events) await fanOut(ctx, event);
  const started = ctx.workflows ? await startPending(ctx, ctx.workflows) : 0;
  await redactFinished(ctx.models, {}, ctx.now());
  return events.length === BATCH || started === BATCH;
}
