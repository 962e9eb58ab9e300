// Member-change events (webhook family 2): their payloads, recorded in the outbox with the change, and their
// redaction when a member is erased.
import { Op, type Transaction } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { recordEvent, redactFinished } from '../outbox.ts';
import { memberState, type MemberState, type MemberView } from './view.ts';

export const MEMBER_EVENT_TYPES = ['team_member_created', 'team_member_updated', 'team_member_deactivated', 'team_member_deleted'] as const;
export type MemberEventType = (typeof MEMBER_EVENT_TYPES)[number];

/** `api` (a key call), `zapier` (an integration platform's writes), `ui` (the console), `import` (bulk imports). */
export const EVENT_SOURCES = ['api', 'zapier', 'ui', 'import'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/** The member as events carry it: the spec's fields (no manager or custom dates), the birth year masked. */
export type EventMember = { id: number } & Omit<MemberState, 'manager_email' | 'custom_fields'> & { disabled: 0 | 1; updatedat: string };

/** What the delete event carries, so subscribers can erase the person too. */
export interface DeletedMember {
  id: number;
  email: string;
  employee_id: string | null;
}

export interface MemberEvent {
  event_id: string;
  event_type: MemberEventType;
  timestamp: string;
  source: EventSource;
  changed_fields?: string[];
  member: EventMember | DeletedMember;
}

/** The year of a birth date is never sent: `1990-04-12` → `1800-04-12`. */
export function maskBirthYear(date: string | null): string | null {
  return date === null ? null : `1800${date.slice(4)}`;
}

export function eventMember(view: MemberView & { id: number }): EventMember {
  const { manager_email: _manager, custom_fields: _custom, ...person } = memberState(view);
  return { id: view.id, ...person, date_of_birth: maskBirthYear(view.date_of_birth), disabled: view.disabled ? 1 : 0, updatedat: view.updated_at.toISOString() };
}

export function memberEventBody(input: {
  eventId: string;
  type: MemberEventType;
  at: Date;
  source: EventSource;
  member: MemberEvent['member'];
  changedFields?: string[] | undefined;
}): MemberEvent {
  return {
    event_id: input.eventId,
    event_type: input.type,
    timestamp: input.at.toISOString(),
    source: input.source,
    ...(input.type === 'team_member_updated' ? { changed_fields: input.changedFields ?? [] } : {}),
    member: input.member,
  };
}

export interface MemberChange {
  accountId: number;
  type: MemberEventType;
  source: EventSource;
  at: Date;
  member: MemberEvent['member'];
  changedFields?: string[];
}

/** Writes the event of a change, in the change's transaction. */
export async function recordMemberEvent(ctx: ServiceContext, change: MemberChange, transaction: Transaction): Promise<void> {
  const eventId = crypto.randomUUID();
  await recordEvent(
    ctx,
    {
      accountId: change.accountId,
      eventId,
      eventType: change.type,
      source: change.source,
      memberId: change.member.id,
      occurredAt: change.at,
      body: memberEventBody({ eventId, ...change }),
      redactAfterDelivery: change.type === 'team_member_deleted',
    },
    transaction,
  );
}

/**
 * Marks a member's earlier events for redaction and redacts at once those that no delivery still needs (the
 * webhook engine redacts the rest as their deliveries finish).
 */
export async function redactMemberEvents(ctx: Pick<ServiceContext, 'models'>, accountId: number, memberId: number, at: Date, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const events = await models.OutboxEvent.findAll({
    where: { account_id: accountId, member_id: memberId, redacted_at: { [Op.is]: null } },
    attributes: ['id'],
    transaction,
  });
  if (events.length === 0) return;
  const ids = events.map((e) => e.id);
  await models.OutboxEvent.update({ redact_after_delivery: true }, { where: { id: ids }, transaction });
  await redactFinished(ctx, { ids }, at, transaction);
}
