// Directory helpers for tests: the outbox events of an account, and members seeded straight into the table.
import type { Models } from '../../models/index.ts';
import type { MemberEvent } from '../../services/directory/events.ts';

export interface RecordedEvent {
  type: string;
  source: string;
  memberId: number | null;
  redacted: boolean;
  body: MemberEvent;
  raw: string;
}

export async function outboxEvents(models: Models, accountId: number): Promise<RecordedEvent[]> {
  const rows = await models.OutboxEvent.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']] });
  return rows.map((r) => ({
    type: r.event_type,
    source: r.source,
    memberId: r.member_id,
    redacted: r.redacted_at !== null,
    body: JSON.parse(r.payload) as MemberEvent,
    raw: r.payload,
  }));
}

/** `count` members (`m<i>@<domain>`), inserted in one statement; no events (like a bulk import). */
export async function seedMembers(models: Models, accountId: number, count: number, options: { domain?: string; at?: Date; disabledEvery?: number } = {}) {
  const at = options.at ?? new Date();
  const rows = Array.from({ length: count }, (_, i) => ({
    account_id: accountId,
    email: `m${i}@${options.domain ?? 'seed.example.com'}`,
    employee_id: null,
    first_name: `First${i}`,
    last_name: null,
    job_position: null,
    date_of_birth: null,
    hire_date: null,
    profile_image_url: null,
    manager_id: null,
    pending_manager_email: null,
    disabled: options.disabledEvery ? i % options.disabledEvery === 0 : false,
    created_at: at,
    updated_at: at,
  }));
  for (let i = 0; i < rows.length; i += 500) await models.TeamMember.bulkCreate(rows.slice(i, i + 500));
}
