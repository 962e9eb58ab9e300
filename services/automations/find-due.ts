// The find-due step of a firing: the occasions whose send date is in the firing's window become automation_sends
// rows (pending), those of a window too old to send become `missed` rows, and the notifications due at this firing
// become one digest row per notified person and type. Every insert is INSERT IGNORE / ON CONFLICT DO NOTHING on
// (automation, member, occurrence key), so a second or overlapping firing adds nothing; rows carry the firing's
// date D, and the firing's batches send only pending rows of D.
import { fn, col } from 'sequelize';
import { loadAccountSettings } from '../account-settings.ts';
import { afterQuietHours } from '../local-time/quiet-hours.ts';
import { NOTIFICATION_TYPES, type NotificationType } from '../../models/AutomationEcard.ts';
import type { AutomationSendStatus } from '../../models/AutomationSend.ts';
import type { FindDueResult } from '../../workflows/automation/contract.ts';
import type { ServiceContext } from '../context.ts';
import { dueConfigOf, loadConfig, type AutomationConfig } from './config.ts';
import { dueOccasions, occasionsToNotify, type DueConfig, type FiringWindow, type LocalDate, type NotifiedOccasion, type Occasion } from './due.ts';
import { planFiringCards } from './local-plan.ts';
import { activeMembers, chunks, departmentMembers, membersInScope, type ScopedMember } from './members.ts';

export interface FindDueInput {
  accountId: number;
  automationId: number;
  firingDate: LocalDate;
  window: FiringWindow;
  /**
   * Local-time firings (absent in histories from before them): the firing's moment (ISO), from which each row's
   * send_at is planned (services/automations/local-plan.ts), and with recipient_timezone the firing's zone.
   */
  at?: string;
  zone?: string | null;
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
  zone?: string | null;
  send_at?: Date | null;
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
  const accountId = config.row.account_id;
  const audience = new Map<number, number[]>();
  if (type === 'manager') {
    const managers = new Set((await activeMembers(ctx, accountId, { ids: celebrants.flatMap((c) => (c.manager_id ? [c.manager_id] : [])) })).map((m) => m.id));
    for (const c of celebrants) if (c.manager_id && c.manager_id !== c.id && managers.has(c.manager_id)) audience.set(c.id, [c.manager_id]);
    return audience;
  }
  if (type === 'department') {
    const byDepartment = await departmentMembers(ctx, celebrants.flatMap((c) => c.department_ids));
    const active = new Set((await activeMembers(ctx, accountId, { ids: [...byDepartment.values()].flat() })).map((m) => m.id));
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
  const byDepartment = await departmentMembers(ctx, segment.department_ids);
  const people = (await activeMembers(ctx, accountId, { ids: [...segment.member_ids, ...[...byDepartment.values()].flat()] })).map((m) => m.id);
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
  const config = await loadConfig(ctx, input.accountId, input.automationId);
  const due = config?.row.enabled ? dueConfigOf(config) : null;
  if (!config || !due) return { cards: 0, digests: 0, missed: 0 };
  const members = await membersInScope(ctx, config);
  const { from, to, missedFrom } = input.window;
  if (input.at === undefined) {
    // A firing from before local time: every member, no send_at (at once).
    const rows = dueOccasions(due, members, { from, to }).map((o) => cardRow(config, input.firingDate, o, 'pending'));
    if (missedFrom !== null) rows.push(...dueOccasions(due, members, { from: missedFrom, to: from }).map((o) => cardRow(config, input.firingDate, o, 'missed')));
    rows.push(...(await digestRows(ctx, config, due, members, input)));
    await insertIgnoring(ctx, rows);
    return countRows(ctx, config.row.id, input.firingDate);
  }
  const zone = due.timing_config.recipient_timezone ? (input.zone ?? due.timing_config.timezone) : null;
  const { quiet_hours: quiet } = await loadAccountSettings(ctx, config.row.account_id);
  const plan = planFiringCards({ members, timing: due.timing_config, firingZone: zone, firingDate: input.firingDate, quiet, at: new Date(input.at) });
  const sendAtOf = new Map(plan.cards.map((c) => [c.member.id, c.sendAt]));
  const sending = plan.cards.map((c) => c.member);
  const placed = (status: AutomationSendStatus) => (o: Occasion) => ({ ...cardRow(config, input.firingDate, o, status), zone, send_at: sendAtOf.get(o.member_id) ?? null });
  const rows = dueOccasions(due, sending, { from, to }).map(placed('pending'));
  if (missedFrom !== null) rows.push(...dueOccasions(due, sending, { from: missedFrom, to: from }).map(placed('missed')));
  // Digests tell of every zone's celebrants at once: only the firing in the automation's own zone makes them.
  if (zone === null || zone === due.timing_config.timezone) {
    const digests = await digestRows(ctx, config, due, members, input);
    const zoneOf = await memberTimezones(ctx, digests.map((d) => d.member_id));
    rows.push(...digests.map((d) => ({ ...d, zone, send_at: afterQuietHours(plan.at, zoneOf.get(d.member_id) ?? due.timing_config.timezone, quiet) })));
  }
  await insertIgnoring(ctx, rows);
  return countRows(ctx, config.row.id, input.firingDate, zone);
}

/** The own zones of the notified people (a digest waits for its reader's quiet hours). */
async function memberTimezones(ctx: ServiceContext, ids: number[]): Promise<Map<number, string>> {
  const zones = new Map<number, string>();
  for (const part of chunks([...new Set(ids)])) {
    for (const m of await ctx.models.TeamMember.findAll({ attributes: ['id', 'timezone'], where: { id: part }, raw: true })) if (m.timezone) zones.set(m.id, m.timezone);
  }
  return zones;
}

async function countRows(ctx: ServiceContext, automationId: number, firingDate: LocalDate, zone?: string | null): Promise<FindDueResult> {
  const groups = (await ctx.models.AutomationSend.findAll({
    attributes: ['kind', 'status', [fn('COUNT', col('id')), 'n']],
    where: { automation_id: automationId, firing_date: firingDate, ...(zone !== undefined ? { zone } : {}) },
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
