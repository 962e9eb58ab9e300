// The members an automation reaches: its scope (selected members ∪ members of selected departments, or every
// active member when both are empty), loaded as the due module's DueMember plus what sending needs. Disabled
// members are never returned; custom dates come from the account's active custom fields only.
import type { ServiceContext } from '../context.ts';
import { literal, Op, type Transaction } from 'sequelize';
import type { AutomationConfig } from './config.ts';
import type { DueMember } from './due.ts';

export interface ScopedMember extends DueMember {
  email: string;
  first_name: string | null;
  last_name: string | null;
  manager_id: number | null;
  /** Their own IANA zone, null for none (an automation then uses its own). */
  timezone: string | null;
  department_ids: number[];
}

export interface MemberQuery {
  /** Only these members (still filtered by scope and activity). */
  ids?: readonly number[];
  transaction?: Transaction;
}

// Id lists go into IN (...) in chunks, so 10,000 members never make one statement too long for either database.
const ID_CHUNK = 1000;

export function chunks<T>(items: readonly T[], size = ID_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const opt = (transaction?: Transaction) => (transaction ? { transaction } : {});

/**
 * The account's active members, optionally only `ids`, with their departments and active custom dates.
 * Ordered by id. Used for the scope and for the people a notification reaches (who may be outside the scope).
 */
export async function activeMembers(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: MemberQuery = {}): Promise<ScopedMember[]> {
  const { models } = ctx;
  const { ids, transaction } = query;
  const attributes = ['id', 'email', 'first_name', 'last_name', 'manager_id', 'timezone', 'date_of_birth', 'hire_date'] as const;
  const base = { account_id: accountId, disabled: false };
  const rows = ids
    ? (await Promise.all(chunks([...new Set(ids)]).map((part) => models.TeamMember.findAll({ attributes: [...attributes], where: { ...base, id: part }, ...opt(transaction) })))).flat()
    : await models.TeamMember.findAll({ attributes: [...attributes], where: base, ...opt(transaction) });
  if (rows.length === 0) return [];
  rows.sort((a, b) => a.id - b.id);

  // One query over the account's members when all are loaded; chunks of ids otherwise.
  const accountMembers = literal(`(SELECT id FROM team_members WHERE account_id = ${Number(accountId)})`);
  const memberFilters = ids ? chunks(rows.map((r) => r.id)).map((part) => ({ [Op.in]: part })) : [{ [Op.in]: accountMembers }];
  const links = (
    await Promise.all(memberFilters.map((member_id) => models.MemberDepartment.findAll({ where: { member_id }, raw: true, ...opt(transaction) })))
  ).flat();
  const fields = await models.CustomField.findAll({ attributes: ['id', 'field_key'], where: { account_id: accountId, active: true }, raw: true, ...opt(transaction) });
  const values = fields.length
    ? (
        await Promise.all(
          memberFilters.map((member_id) =>
            models.MemberCustomValue.findAll({ where: { member_id, field_id: fields.map((f) => f.id) }, raw: true, ...opt(transaction) })),
        )
      ).flat()
    : [];
  const fieldKey = new Map(fields.map((f) => [f.id, f.field_key]));
  const departmentsOf = new Map<number, number[]>();
  for (const link of links) departmentsOf.set(link.member_id, [...(departmentsOf.get(link.member_id) ?? []), link.department_id]);
  const datesOf = new Map<number, Record<string, string>>();
  for (const v of values) {
    const dates = datesOf.get(v.member_id) ?? datesOf.set(v.member_id, {}).get(v.member_id)!;
    dates[fieldKey.get(v.field_id)!] = dateText(v.value);
  }
  return rows.map((m) => ({
    id: m.id,
    email: m.email,
    first_name: m.first_name,
    last_name: m.last_name,
    manager_id: m.manager_id,
    timezone: m.timezone,
    date_of_birth: m.date_of_birth ? dateText(m.date_of_birth) : null,
    hire_date: m.hire_date ? dateText(m.hire_date) : null,
    custom_dates: datesOf.get(m.id) ?? {},
    department_ids: (departmentsOf.get(m.id) ?? []).sort((a, b) => a - b),
  }));
}

// DATEONLY is a string on both databases; a Date (a driver configured otherwise) is read as its UTC date.
function dateText(value: unknown): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
}

/** The members (any state) of the given departments, by department; callers load the active ones. */
export async function departmentMembers(ctx: Pick<ServiceContext, 'models'>, departmentIds: readonly number[], transaction?: Transaction): Promise<Map<number, number[]>> {
  const { models } = ctx;
  const byDepartment = new Map<number, number[]>();
  for (const part of chunks([...new Set(departmentIds)])) {
    const links = await models.MemberDepartment.findAll({ where: { department_id: part }, raw: true, ...opt(transaction) });
    for (const link of links) byDepartment.set(link.department_id, [...(byDepartment.get(link.department_id) ?? []), link.member_id]);
  }
  return byDepartment;
}

/** Whether the automation reaches everyone (no members or departments selected). */
export function reachesEveryone(config: Pick<AutomationConfig, 'selected_member_ids' | 'selected_department_ids'>): boolean {
  return config.selected_member_ids.length === 0 && config.selected_department_ids.length === 0;
}

/** Whether an active member is in the automation's scope. */
export function inScope(config: Pick<AutomationConfig, 'selected_member_ids' | 'selected_department_ids'>, member: Pick<ScopedMember, 'id' | 'department_ids'>): boolean {
  if (reachesEveryone(config)) return true;
  return config.selected_member_ids.includes(member.id) || member.department_ids.some((d) => config.selected_department_ids.includes(d));
}

/** The active members in the automation's scope (optionally only `ids`), ordered by id. */
export async function membersInScope(ctx: Pick<ServiceContext, 'models'>, config: AutomationConfig, query: MemberQuery = {}): Promise<ScopedMember[]> {
  if (reachesEveryone(config)) return activeMembers(ctx, config.row.account_id, query);
  // A selection loads only its candidates: the selected members and their departments' members.
  let ids = query.ids;
  if (!ids) {
    const departments = await departmentMembers(ctx, config.selected_department_ids, query.transaction);
    ids = [...config.selected_member_ids, ...[...departments.values()].flat()];
  }
  const members = await activeMembers(ctx, config.row.account_id, { ...query, ids });
  const selected = new Set(config.selected_member_ids);
  const departments = new Set(config.selected_department_ids);
  return members.filter((m) => selected.has(m.id) || m.department_ids.some((d) => departments.has(d)));
}
