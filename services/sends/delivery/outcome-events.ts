// Outcome events (decisions.md, "Delivery outcomes and local time"; an extension of the spec's subscriptions):
// what became of each recipient, delivered by the webhook engine like member events. Written in the transaction
// of the transition they describe, only by the write that made it (a conditional update's count), so a retried
// activity never emits twice; nothing is written when no endpoint subscribes to the type.
import { Op, type Transaction } from 'sequelize';
import { writeTransaction } from '../../../lib/db.ts';
import { accountTransaction } from '../../account-lock.ts';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import type { ServiceContext } from '../../context.ts';
import { recordEvent } from '../../outbox.ts';
import { bounceDetailOf, type BounceDetail } from './bounce-detail.ts';
import { memberSendIds, recipientOutcome, type RecipientOutcome } from '../log/log.ts';

export const OUTCOME_EVENT_TYPES = ['ecard_delivered', 'ecard_opened', 'ecard_failed', 'ecard_bounced'] as const;
export type OutcomeEventType = (typeof OUTCOME_EVENT_TYPES)[number];

export const isOutcomeEventType = (type: string): type is OutcomeEventType => (OUTCOME_EVENT_TYPES as readonly string[]).includes(type);

/** Outcome events about a whole campaign or one gift: one per delivery, no recipient list (their bodies: their own modules). */
export const SUMMARY_EVENT_TYPES = ['campaign_completed', 'gift_claimed'] as const;
export type SummaryEventType = (typeof SUMMARY_EVENT_TYPES)[number];

/** Every outcome type: subscribing to one needs `sends: view` as well as `webhooks: manage`. */
export const ALL_OUTCOME_EVENT_TYPES = [...OUTCOME_EVENT_TYPES, ...SUMMARY_EVENT_TYPES] as const;
export const isAnyOutcomeEventType = (type: string): boolean => (ALL_OUTCOME_EVENT_TYPES as readonly string[]).includes(type);

/** Recipients per delivery. */
export const OUTCOME_BATCH = 100;

/** The outbox `source` of an outcome event whose recipients are directory members: the log masks them for a key without `directory: view`. */
export const MEMBER_RECIPIENTS_SOURCE = 'directory';

export interface OutcomeSend {
  /** The send, or null when the recipients belong to several sends of one campaign or automation (each recipient names its own). */
  sendId: string | null;
  origin: Send['origin'];
  ecardid: number;
  widgetid: number;
  campaign_id: number | null;
  automation_id: number | null;
}

export interface OutcomeEvent {
  event_id: string;
  event_type: OutcomeEventType;
  timestamp: string;
  send: OutcomeSend;
  /** `bounce`: ecard_bounced only. */
  recipients: Array<RecipientOutcome & { sendId: string; bounce?: BounceDetail | null }>;
}

/** The `send` of an outcome event: the send's own id, or null for recipients of several sends (each names its own). */
export function sendOf(send: Send, several: boolean): OutcomeSend {
  return {
    sendId: several ? null : send.send_id,
    origin: send.origin,
    ecardid: send.ecard_id,
    widgetid: send.widget_id,
    campaign_id: send.origin === 'campaign' ? send.origin_id : null,
    automation_id: send.origin === 'automation' ? send.origin_id : null,
  };
}

/** The outcome types an active endpoint of the account takes, read now. */
async function readSubscribedTypes(ctx: Pick<ServiceContext, 'models'>, accountId: number, types: readonly string[], transaction?: Transaction): Promise<Set<string>> {
  const rows = await ctx.models.WebhookEndpoint.findAll({
    where: { account_id: accountId, kind: 'member_change', event_type: [...types], removed_at: { [Op.is]: null } },
    attributes: ['event_type'],
    ...(transaction ? { transaction } : {}),
  });
  return new Set(rows.map((r) => r.event_type!));
}

// The pre-check before a transition (whether to mark, whether to lock the account) reads every outcome type of the
// account at once and keeps it for config.webhooks.outcomeSubscriptionsCacheMs, per process and database: a bulk
// batch's micro-batches, a send's end and the opens then read the endpoints once in that time instead of once each.
// A stale answer costs nothing wrong: a "yes" that is no longer true meets the check in the transaction that writes
// the events (recordOutcomeEvents), and a "no" that became a "yes" holds only until the entry ends, so a new
// subscription takes the transitions after that (docs/decisions.md, "Outcome subscriptions, cached").
const subscriptionsRead = new WeakMap<object, Map<number, { until: number; types: Set<string> }>>();

async function cachedSubscribedTypes(ctx: Pick<ServiceContext, 'models' | 'config' | 'now'>, accountId: number): Promise<Set<string>> {
  const ttl = ctx.config.webhooks.outcomeSubscriptionsCacheMs;
  if (ttl === 0) return readSubscribedTypes(ctx, accountId, ALL_OUTCOME_EVENT_TYPES);
  const now = ctx.now().getTime();
  const accounts = subscriptionsRead.get(ctx.models) ?? subscriptionsRead.set(ctx.models, new Map()).get(ctx.models)!;
  const entry = accounts.get(accountId);
  // An entry from the future (a test clock moved back) is not trusted either.
  if (entry && now < entry.until && entry.until - now <= ttl) return entry.types;
  const types = await readSubscribedTypes(ctx, accountId, ALL_OUTCOME_EVENT_TYPES);
  accounts.set(accountId, { until: now + ttl, types });
  return types;
}

/**
 * The types among `types` that an active endpoint of the account takes (a transition marks or records those): in a
 * transaction, read there (the check that decides what is written); else the process's recent read of them.
 */
export async function subscribedTypes<T extends OutcomeEventType | SummaryEventType>(
  ctx: Pick<ServiceContext, 'models' | 'config' | 'now'>,
  accountId: number,
  types: readonly T[],
  transaction?: Transaction,
): Promise<Set<T>> {
  const taken = transaction ? await readSubscribedTypes(ctx, accountId, types, transaction) : await cachedSubscribedTypes(ctx, accountId);
  return new Set(types.filter((type) => taken.has(type)));
}

/** Whether an active subscription of the account takes this type (none: nothing is written). */
export async function hasSubscriber(ctx: Pick<ServiceContext, 'models'>, accountId: number, type: OutcomeEventType | SummaryEventType, transaction: Transaction): Promise<boolean> {
  return (await readSubscribedTypes(ctx, accountId, [type], transaction)).size > 0;
}

/**
 * A summary event (`campaign_completed`, `gift_claimed`) in the transaction of the write that made it: nothing is
 * built or written without a subscriber; `build` gets the instant the event is stamped with.
 */
export async function recordSummaryEvent<B extends { event_id: string; event_type: SummaryEventType }>(
  ctx: Pick<ServiceContext, 'models' | 'nudge' | 'now'>,
  accountId: number,
  type: B['event_type'],
  source: string,
  build: (now: Date) => Promise<B>,
  transaction: Transaction,
): Promise<void> {
  if (!(await hasSubscriber(ctx, accountId, type, transaction))) return;
  const now = ctx.now();
  const body = await build(now);
  await recordEvent(ctx, { accountId, eventId: body.event_id, eventType: body.event_type, source, memberId: null, occurredAt: now, body }, transaction);
}

/**
 * The transaction of a transition that may emit `types`: under the account's lock when an endpoint of the account
 * takes one of them (every write that records events locks the account first, so the drain's fan-out cannot
 * deadlock with it: services/webhooks/drain.ts), else a plain one that records nothing, as before outcome events
 * existed, so a campaign's micro-batches and the opens of an account without subscribers do not queue on the
 * account's row. `emits` tells the work which it got; a subscription made meanwhile takes the next transitions.
 */
export async function outcomeTransaction<T>(
  ctx: Pick<ServiceContext, 'models' | 'config' | 'now'>,
  accountId: number,
  types: ReadonlyArray<OutcomeEventType | SummaryEventType>,
  work: (transaction: Transaction, emits: boolean) => Promise<T>,
): Promise<T> {
  if ((await subscribedTypes(ctx, accountId, types)).size > 0) return accountTransaction(ctx, accountId, (transaction) => work(transaction, true));
  return writeTransaction(ctx.models.sequelize, (transaction) => work(transaction, false));
}

/**
 * Records the events of recipients that just made one transition (each as it is now), in that transition's
 * transaction. Recipients are grouped by send; a campaign's or automation's sends (one recipient each) are grouped
 * by the campaign or automation, eCard and whether they went to members; each group goes out in deliveries of up
 * to 100 recipients.
 */
export async function recordOutcomeEvents(
  ctx: Pick<ServiceContext, 'models' | 'nudge' | 'now'>,
  type: OutcomeEventType,
  items: ReadonlyArray<{ send: Send; recipient: SendRecipient }>,
  transaction: Transaction,
): Promise<void> {
  if (items.length === 0) return;
  const accountId = items[0]!.send.account_id;
  if (!(await hasSubscriber(ctx, accountId, type, transaction))) return;
  const members = await memberSendIds(ctx, [...new Map(items.map((i) => [i.send.id, i.send])).values()], transaction);
  const groups = new Map<string, Array<{ send: Send; recipient: SendRecipient }>>();
  for (const item of items) {
    const { send } = item;
    const key = send.origin === 'campaign' || send.origin === 'automation' ? `${send.origin}:${send.origin_id}:${send.ecard_id}:${send.widget_id}:${members.has(send.id)}` : `send:${send.id}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const now = ctx.now();
  for (const group of groups.values()) {
    for (let i = 0; i < group.length; i += OUTCOME_BATCH) {
      const part = group.slice(i, i + OUTCOME_BATCH);
      const first = part[0]!.send;
      const eventId = crypto.randomUUID();
      const body: OutcomeEvent = {
        event_id: eventId,
        event_type: type,
        timestamp: now.toISOString(),
        send: sendOf(first, part.some((p) => p.send.id !== first.id)),
        recipients: part.map(({ send, recipient }) => ({
          sendId: send.send_id,
          ...recipientOutcome(recipient, false),
          ...(type === 'ecard_bounced' ? { bounce: bounceDetailOf(recipient) } : {}),
        })),
      };
      await recordEvent(
        ctx,
        { accountId, eventId, eventType: type, source: members.has(first.id) ? MEMBER_RECIPIENTS_SOURCE : first.origin, memberId: null, occurredAt: now, body },
        transaction,
      );
    }
  }
}

/** How a body of an outcome event whose recipients are members is shown to a key without `directory: view`. */
export function maskedOutcomeBody(payload: string): string {
  const body = JSON.parse(payload) as OutcomeEvent;
  return JSON.stringify({ ...body, recipients: body.recipients.map((r) => ({ ...r, name: null, email: null })) });
}

/** Every recipient named in such a body (what a receiver's echo of it may contain). */
export function outcomeRecipientValues(payload: string): string[] {
  const body = JSON.parse(payload) as OutcomeEvent;
  return body.recipients.flatMap((r) => [r.name, r.email]).filter((v): v is string => typeof v === 'string' && v.length >= 3);
}

/** A sample of each type, of invented data, for test sends. */
export function sampleOutcomeEvent(type: OutcomeEventType, now: Date): OutcomeEvent {
  const at = now.toISOString();
  return {
    event_id: crypto.randomUUID(),
    event_type: type,
    timestamp: at,
    send: { sendId: '00000000-0000-4000-8000-000000000001', origin: 'single', ecardid: 1001, widgetid: 2001, campaign_id: null, automation_id: null },
    recipients: [
      {
        sendId: '00000000-0000-4000-8000-000000000001',
        name: 'John Roe',
        email: 'john.roe@example.com',
        status: type === 'ecard_failed' ? 'failed' : 'sent',
        sent_at: type === 'ecard_failed' ? null : at,
        opened_at: type === 'ecard_opened' ? at : null,
        bounced_at: type === 'ecard_bounced' ? at : null,
        failure: type === 'ecard_failed' ? '550 5.1.1 mailbox unavailable' : null,
        ...(type === 'ecard_bounced' ? { bounce: { kind: 'hard' as const, status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 <address>: Recipient address rejected' } } : {}),
      },
    ],
  };
}
