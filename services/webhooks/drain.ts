// Turns committed events into deliveries and starts their workflows. Each step is idempotent, so a crash at
// any point loses nothing and starts nothing twice: an event is claimed and fanned out in one transaction
// (one delivery row per event and endpoint), and a delivery's workflow start is retried until it is recorded.
import { Op } from 'sequelize';
import type { Config } from '../../lib/config.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Models } from '../../models/index.ts';
import type { OutboxEvent } from '../../models/OutboxEvent.ts';
import { deliveryWorkflowId, startDeliveryWorkflow, type WorkflowTarget } from '../../workflows/webhook-delivery/lifecycle.ts';
import { accountTransaction } from '../account-lock.ts';
import { outboxNudges, redactFinished } from '../outbox.ts';

export interface DrainDeps {
  models: Models;
  logger: Logger;
  webhooks: Config['webhooks'];
  target: WorkflowTarget;
  now: () => Date;
  /** More background passes the same loop runs (send starts, the mail queue); each says whether more is waiting. */
  otherPasses?: Array<() => Promise<boolean>>;
}

const BATCH = 100;

// An event goes to the endpoints that existed when it happened; a paused endpoint's delivery is logged Failed.
async function fanOut(deps: DrainDeps, event: OutboxEvent): Promise<void> {
  const { models } = deps;
  // Under the account's lock, like every write that records events: locks are taken in one order (the account
  // first), so fanning out cannot deadlock with a member change writing its event (it did on MariaDB).
  await accountTransaction(models, event.account_id, async (transaction) => {
    const now = deps.now();
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

async function startPending(deps: DrainDeps): Promise<number> {
  const { models } = deps;
  const pending = await models.WebhookDelivery.findAll({ where: { workflow_started: false, status: 'Pending', trigger: 'auto' }, order: [['id', 'ASC']], limit: BATCH });
  for (const delivery of pending) {
    await startDeliveryWorkflow(deps.target, delivery.workflow_id, delivery.account_id, {
      deliveryId: delivery.id,
      trigger: 'auto',
      retryDelaysSeconds: deps.webhooks.retryDelaysSeconds,
    });
    await models.WebhookDelivery.update({ workflow_started: true }, { where: { id: delivery.id } });
  }
  return pending.length;
}

/** One pass: drain waiting events, start waiting workflows, redact what finished. True when there may be more. */
export async function drainOutbox(deps: DrainDeps): Promise<boolean> {
  const events = await deps.models.OutboxEvent.findAll({ where: { drained_at: { [Op.is]: null } }, order: [['id', 'ASC']], limit: BATCH });
  for (const event of events) await fanOut(deps, event);
  const started = await startPending(deps);
  await redactFinished(deps.models, {}, deps.now());
  return events.length === BATCH || started === BATCH;
}

export interface RunningDrainer {
  stop(): Promise<void>;
}

/** Drains after every commit in this process and every OUTBOX_SWEEP_MS (events committed by other processes), with the other passes. */
export function startOutboxDrainer(deps: DrainDeps): RunningDrainer {
  let running = true;
  let wake: (() => void) | undefined;
  let nudged = false;
  const nudge = () => {
    nudged = true;
    wake?.();
  };
  outboxNudges.on('event', nudge);
  const loop = (async () => {
    while (running) {
      nudged = false;
      let more = false;
      for (const pass of [() => drainOutbox(deps), ...(deps.otherPasses ?? [])]) {
        try {
          more = (await pass()) || more;
        } catch (err) {
          deps.logger.warn({ err }, 'a background pass (outbox, sends, mail queue) failed; retrying at the next sweep');
        }
      }
      if (more || nudged || !running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deps.webhooks.outboxSweepMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();
  return {
    async stop() {
      running = false;
      outboxNudges.off('event', nudge);
      wake?.();
      await loop;
    },
  };
}
