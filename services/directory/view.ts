// A member as the directory shows it: its row plus department names, manager email and custom dates,
// read for a whole page of members at once.
import type { ServiceContext } from '../context.ts';
import { Op, type Transaction } from 'sequelize';
import type { CustomField } from '../../models/CustomField.ts';
import type { TeamMember } from '../../models/TeamMember.ts';

/** Everything about a member that an upsert can change (the fields a diff compares). */
export interface MemberState {
  email: string;
  employee_id: string | null;
  first_name: string | null;
  last_name: string | null;
  job_position: string | null;
  departments: string[];
  date_of_birth: string | null;
  hire_date: string | null;
  profile_image_url: string | null;
  manager_email: string | null;
  /** An IANA zone name, or null (the account's default zone applies). */
  timezone: string | null;
  custom_fields: Record<string, string>;
}

export interface MemberView extends MemberState {
  /** null only for the would-be member of a dry run that would create one. */
  id: number | null;
  manager_id: number | null;
  disabled: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The fields of a view an upsert can change, in the order the API shows them. */
export function memberState(view: MemberState): MemberState {
  return {
    email: view.email,
    employee_id: view.employee_id,
    first_name: view.first_name,
    last_name: view.last_name,
    job_position: view.job_position,
    departments: view.departments,
    date_of_birth: view.date_of_birth,
    hire_date: view.hire_date,
    profile_image_url: view.profile_image_url,
    manager_email: view.manager_email,
    timezone: view.timezone,
    custom_fields: view.custom_fields,
  };
}

/** Department names in one order, so sets compare and print the same way every time. */
export function sortNames(names: string[]): string[] {
  return [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || a.localeCompare(b));
}

const opt = (transaction: Transaction | undefined) => (transaction ? { transaction } : {});

/**
 * Views of members of one account, in the order given; department, manager and custom values in 3 queries.
 * `fields`: the account's active custom fields when the caller has read them already.
 */
export async function loadViews(ctx: Pick<ServiceContext, 'models'>, accountId: number, members: TeamMember[], transaction?: Transaction, fields?: CustomField[]): Promise<MemberView[]> {
  const { models } = ctx;
  if (members.length === 0) return [];
  const ids = members.map((m) => m.id);
  const links = await models.MemberDepartment.findAll({ where: { member_id: ids }, ...opt(transaction) });
  const departments = links.length
    ? await models.Department.findAll({ where: { account_id: accountId, id: [...new Set(links.map((l) => l.department_id))] }, ...opt(transaction) })
    : [];
  const departmentName = new Map(departments.map((d) => [d.id, d.name]));
  const managerIds = [...new Set(members.map((m) => m.manager_id).filter((id): id is number => id !== null))];
  const managers = managerIds.length
    ? await models.TeamMember.findAll({ where: { account_id: accountId, id: managerIds }, attributes: ['id', 'email'], ...opt(transaction) })
    : [];
  const managerEmail = new Map(managers.map((m) => [m.id, m.email]));
  fields ??= await models.CustomField.findAll({ where: { account_id: accountId, active: true }, ...opt(transaction) });
  const values = fields.length
    ? await models.MemberCustomValue.findAll({ where: { member_id: ids, field_id: { [Op.in]: fields.map((f) => f.id) } }, ...opt(transaction) })
    : [];
  const fieldKey = new Map(fields.map((f) => [f.id, f.field_key]));
  const namesOf = groupBy(links, (l) => l.member_id);
  const valuesOf = groupBy(values, (v) => v.member_id);

  return members.map((m) => {
    const custom: Record<string, string> = {};
    for (const v of valuesOf.get(m.id) ?? []) custom[fieldKey.get(v.field_id)!] = v.value;
    return memberView(m, {
      departments: sortNames((namesOf.get(m.id) ?? []).map((l) => departmentName.get(l.department_id)!)),
      manager_email: m.manager_id !== null ? (managerEmail.get(m.manager_id) ?? null) : m.pending_manager_email,
      custom_fields: sortKeys(custom),
    });
  });
}

/** A member's view from its row and what other tables hold about it (read, or just written by an upsert). */
export function memberView(m: TeamMember, linked: Pick<MemberState, 'departments' | 'manager_email' | 'custom_fields'>): MemberView {
  return {
    id: m.id,
    email: m.email,
    employee_id: m.employee_id,
    first_name: m.first_name,
    last_name: m.last_name,
    job_position: m.job_position,
    departments: linked.departments,
    date_of_birth: m.date_of_birth,
    hire_date: m.hire_date,
    profile_image_url: m.profile_image_url,
    manager_id: m.manager_id,
    manager_email: linked.manager_email,
    timezone: m.timezone,
    custom_fields: linked.custom_fields,
    disabled: m.disabled,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

function groupBy<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

export function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export async function loadView(ctx: Pick<ServiceContext, 'models'>, member: TeamMember, transaction?: Transaction, fields?: CustomField[]): Promise<MemberView> {
  return (await loadViews(ctx, member.account_id, [member], transaction, fields))[0]!;
}
