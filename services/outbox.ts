// The event outbox: events are written in the transaction of the change they describe, so neither exists
// without the other; the webhook engine drains them into deliveries. Also the redaction of an erased
// member's events once nothing still has to deliver them.
import { literal, Op, type Transaction } from 'sequelize';
import { insertRows } from '../lib/written-statements.ts';
import type { ServiceContext } from './context.ts';

export interface NewEvent {
  accountId: number;
  eventId: string;
  eventType: string;
  source: string;
  memberId: number | null;
  occurredAt: Date;
  /** The delivery body; serialized here once, and those bytes are what every attempt sends. */
  body: unknown;
  /** Personal data to drop once the event's deliveries finish (an erasure's own event). */
  redactAfterDelivery?: boolean;
}

/**
 * Writes the event in the change's transaction (one written-out INSERT, no model instance: it is on every accept's
 * path); once committed, this process's drainer is nudged (other processes sweep). Returns the event's row id.
 */
export async function recordEvent(ctx: Pick<ServiceContext, 'models' | 'nudge'>, event: NewEvent, transaction: Transaction): Promise<number> {
  const id = await insertRows(
    ctx.models.OutboxEvent,
    [{
      event_id: event.eventId,
      account_id: event.accountId,
      event_type: event.eventType,
      source: event.source,
      member_id: event.memberId,
      payload: JSON.stringify(event.body),
      occurred_at: event.occurredAt,
      redact_after_delivery: event.redactAfterDelivery ?? false,
    }],
    transaction,
  );
  transaction.afterCommit(() => ctx.nudge());
  return id;
}

/** A member event without personal data: the member is only its id. */
export function redactedPayload(payload: string): string {
  const body = JSON.parse(payload) as Record<string, unknown> & { member?: { id?: unknown } };
  return JSON.stringify({ ...body, member: { id: body.member?.id ?? null } });
}

// Deliveries still under way keep an event's personal data; checked in the query itself, so events waiting for
// long retries are not read again on every pass (nor crowd out the ones that are ready).
const NO_DELIVERY_UNDER_WAY = literal(
  "NOT EXISTS (SELECT 1 FROM `webhook_deliveries` AS `d` WHERE `d`.`outbox_id` = `OutboxEvent`.`id` AND `d`.`status` IN ('Pending', 'Retrying'))",
);

/**
 * Redacts the given events (all, without ids) that are marked for it and have no delivery still under way. Safe
 * to run any number of times and from any process (the update is conditional on `redacted_at` being empty).
 */
export async function redactFinished(ctx: Pick<ServiceContext, 'models'>, where: { ids?: number[] }, at: Date, transaction?: Transaction): Promise<number> {
  const { models } = ctx;
  const options = transaction ? { transaction } : {};
  const ready = await models.OutboxEvent.findAll({
    where: {
      redact_after_delivery: true,
      redacted_at: { [Op.is]: null },
      drained_at: { [Op.ne]: null },
      ...(where.ids ? { id: where.ids } : {}),
      [Op.and]: [NO_DELIVERY_UNDER_WAY],
    },
    limit: 500,
    ...options,
  });
  let redacted = 0;
  for (const event of ready) {
    const [changed] = await models.OutboxEvent.update(
      { payload: redactedPayload(event.payload), redacted_at: at },
      { where: { id: event.id, redacted_at: { [Op.is]: null } }, ...options },
    );
    redacted += changed;
  }
  return redacted;
}
