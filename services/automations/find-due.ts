// The find-due step of a firing: the occasions whose send date is in the firing's window become automation_sends
// rows (pending), those of a window too old to send become `missed` rows, and the notifications due at this firing
// become one digest row per notified person and type. Every insert is INSERT IGNORE / ON CONFLICT DO NOTHING on
// (automation, member, occurrence key), so a second or overlapping firing adds nothing; rows carry the firing's
// date D, and the firing's batches send only pending rows of D.
import { fn, col } from 'sequelize';
import { NOTIFICATION_TYPES, type NotificationType } from '../../models/AutomationEcard.ts';
import type { AutomationSendStatus } from '../../models/AutomationSend.ts';
import type { FindDueResult } from '../../workflows/automation/contract.ts';
import type { ServiceContext } from '../context.ts';
import { dueConfigOf, loadConfig, type AutomationConfig } from './config.ts';
import { dueOccasions, occasionsToNotify, type DueConfig, type FiringWindow, type LocalDate, type NotifiedOccasion, type Occasion } from './due.ts';
import { activeMembers, departmentMembers, membersInScope, type ScopedMember } from './members.ts';

export interface FindDueInput {
  accountId: number;
  automationId: number;
  firingDate: LocalDate;
  window: FiringWindow;
}

/** What a digest row's `celebrants` holds: ids and dates only; names are read at claim (an erased member drops out). */
export interface StoredCelebrant {
  member_id: number;
  event: string;
  occasion_date: LocalDate;
  years?: number;
}

// A department larger than this gets no department notifications (a company-wide department would mail everyone).
export const DEPARTMENT_NOTIFY_LIMIT = 500;
const INSERT_CHUNK = 1000;

type NewRow = {
  automation_id: number;
  account_id: number;
  member_id: number;
  occurrence_key: string;
  kind: 'card' | 'digest';
  status: AutomationSendStatus;
  firing_date: LocalDate;
  occasion_date: LocalDate | null;
  send_date: LocalDate | null;
  years: number | null;
  milestone_index: number | null;
  celebrants: string | null;
};

async function insertIgnoring(ctx: ServiceContext, rows: NewRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await ctx.models.AutomationSend.bulkCreate(rows.slice(i, i + INSERT_CHUNK), { ignoreDuplicates: true });
  }
}

function cardRow(config: AutomationConfig, firingDate: LocalDate, occasion: Occasion, status: AutomationSendStatus): NewRow {
  return {
    automation_id: config.row.id,
    account_id: config.row.account_id,
    member_id: occasion.member_id,
    occurrence_key: occasion.occurrence_key,
    kind: 'card',
    status,
    firing_date: firingDate,
    occasion_date: occasion.occasion_date,
    send_date: occasion.send_date,
    years: occasion.years ?? null,
    milestone_index: occasion.milestone_index ?? null,
    celebrants: null,
  };
}

/** Who hears of each celebrant's occasion for one notification type: active members, never the celebrant. */
async function notifiedBy(ctx: ServiceContext, config: AutomationConfig, type: NotificationType, celebrants: ScopedMember[]): Promise<Map<number, number[]>> {
  const { models } = ctx;
  const accountId = config.row.account_id;
  const audience = new Map<number, number[]>();
  if (type === 'manager') {
    const managers = new Set((await activeMembers(models, accountId, { ids: celebrants.flatMap((c) => (c.manager_id ? [c.manager_id] : [])) })).map((m) => m.id));
    for (const c of celebrants) if (c.manager_id && c.manager_id !== c.id && managers.has(c.manager_id)) audience.set(c.id, [c.manager_id]);
    return audience;
  }
  if (type === 'department') {
    const byDepartment = await departmentMembers(models, celebrants.flatMap((c) => c.department_ids));
    const active = new Set((await activeMembers(models, accountId, { ids: [...byDepartment.values()].flat() })).map((m) => m.id));
    const activeOf = new Map([...byDepartment].map(([d, ids]) => [d, ids.filter((id) => active.has(id))]));
    for (const c of celebrants) {
      const mates = new Set(c.department_ids.flatMap((d) => {
        const ids = activeOf.get(d) ?? [];
        return ids.length > DEPARTMENT_NOTIFY_LIMIT ? [] : ids;
      }));
      mates.delete(c.id);
      audience.set(c.id, [...mates]);
    }
    return audience;
  }
  const segment = config.notification_segment;
  const byDepartment = await departmentMembers(models, segment.department_ids);
  const people = (await activeMembers(models, accountId, { ids: [...segment.member_ids, ...[...byDepartment.values()].flat()] })).map((m) => m.id);
  for (const c of celebrants) audience.set(c.id, people.filter((id) => id !== c.id));
  return audience;
}

async function digestRows(ctx: ServiceContext, config: AutomationConfig, due: DueConfig, members: ScopedMember[], input: FindDueInput): Promise<NewRow[]> {
  const types = NOTIFICATION_TYPES.filter((type) => config.notification_ecards[type].length > 0);
  if (types.length === 0) return [];
  const occasions: NotifiedOccasion[] = occasionsToNotify(due, members, input.window, config.row.notify_days_before);
  if (occasions.length === 0) return [];
  const byId = new Map(members.map((m) => [m.id, m]));
  const celebrants = [...new Set(occasions.map((o) => o.member_id))].map((id) => byId.get(id)!);
  const rows: NewRow[] = [];
  for (const type of types) {
    const audience = await notifiedBy(ctx, config, type, celebrants);
    const digests = new Map<number, StoredCelebrant[]>();
    for (const o of occasions) {
      const entry: StoredCelebrant = { member_id: o.member_id, event: o.event, occasion_date: o.occasion_date, ...(o.years !== undefined ? { years: o.years } : {}) };
      for (const person of audience.get(o.member_id) ?? []) digests.set(person, [...(digests.get(person) ?? []), entry]);
    }
    for (const [person, list] of digests) {
      rows.push({
        automation_id: config.row.id,
        account_id: config.row.account_id,
        member_id: person,
        occurrence_key: `${type}:${input.firingDate}`,
        kind: 'digest',
        status: 'pending',
        firing_date: input.firingDate,
        occasion_date: null,
        send_date: input.firingDate,
        years: null,
        milestone_index: null,
        celebrants: JSON.stringify(list),
      });
    }
  }
  return rows;
}

export async function findDue(ctx: ServiceContext, input: FindDueInput): Promise<FindDueResult> {
  const config = await loadConfig(ctx.models, input.accountId, input.automationId);
  const due = config?.row.enabled ? dueConfigOf(config) : null;
  if (!config || !due) return { cards: 0, digests: 0, missed: 0 };
  const members = await membersInScope(ctx.models, config);
  const { from, to, missedFrom } = input.window;
  const rows = dueOccasions(due, members, { from, to }).map((o) => cardRow(config, input.firingDate, o, 'pending'));
  if (missedFrom !== null) rows.push(...dueOccasions(due, members, { from: missedFrom, to: from }).map((o) => cardRow(config, input.firingDate, o, 'missed')));
  rows.push(...(await digestRows(ctx, config, due, members, input)));
  await insertIgnoring(ctx, rows);
  return countRows(ctx, config.row.id, input.firingDate);
}

async function countRows(ctx: ServiceContext, automationId: number, firingDate: LocalDate): Promise<FindDueResult> {
  const groups = (await ctx.models.AutomationSend.findAll({
    attributes: ['kind', 'status', [fn('COUNT', col('id')), 'n']],
    where: { automation_id: automationId, firing_date: firingDate },
    group: ['kind', 'status'],
    raw: true,
  })) as unknown as Array<{ kind: string; status: string; n: number | string }>;
  const sum = (pick: (g: { kind: string; status: string }) => boolean) => groups.filter(pick).reduce((n, g) => n + Number(g.n), 0);
  return {
    cards: sum((g) => g.kind === 'card' && g.status !== 'missed'),
    digests: sum((g) => g.kind === 'digest'),
    missed: sum((g) => g.status === 'missed'),
  };
}
