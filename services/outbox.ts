// The event outbox: events are written in the transaction of the change they describe, so neither exists
// without the other; the webhook engine reads them from here.
import type { Transaction } from 'sequelize';
import type { Models } from '../models/index.ts';
import type { OutboxEvent } from '../models/OutboxEvent.ts';

export interface NewEvent {
  accountId: number;
  eventId: string;
  eventType: string;
  source: string;
  memberId: number | null;
  occurredAt: Date;
  /** The delivery body; serialized here once, and those bytes are what every attempt sends. */
  body: unknown;
}

export async function recordEvent(models: Models, event: NewEvent, transaction: Transaction): Promise<OutboxEvent> {
  return models.OutboxEvent.create(
    {
      event_id: event.eventId,
      account_id: event.accountId,
      event_type: event.eventType,
      source: event.source,
      member_id: event.memberId,
      payload: JSON.stringify(event.body),
      occurred_at: event.occurredAt,
    },
    { transaction },
  );
}
