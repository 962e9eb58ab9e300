// The console's member table: members of one account found by email, name or employee id prefix, a status and a
// department, keyset-paged in id order as the key API's list is; and what erasing one member reaches.
import type { ServiceContext } from '../context.ts';
import { Op, literal, type WhereOptions } from 'sequelize';
import { notFound } from '../../lib/errors.ts';
import type { ListStatus } from './members.ts';
import { loadViews, type MemberView } from './view.ts';

export interface SearchQuery {
  /** A prefix of the email, the first or last name ("Ada Lo": first name "Ada…" and last name "Lo…"), or the employee id. */
  q: string | undefined;
  status: ListStatus;
  departmentId: number | undefined;
  afterId: number;
  perPage: number;
}

/** `LIKE 'prefix%'` with the prefix's own `%`, `_` and `!` taken literally (`!` escapes: one spelling for MariaDB and SQLite). */
function startsWith(ctx: Pick<ServiceContext, 'models'>, column: string, prefix: string) {
  const { models } = ctx;
  const pattern = `${prefix.replace(/[!%_]/g, '!$&')}%`;
  return literal(`${column} LIKE ${models.TeamMember.sequelize!.escape(pattern)} ESCAPE '!'`);
}

/** The ways `q` matches a member, each a condition one index answers (email, first name, last name, employee id). */
function textMatches(ctx: Pick<ServiceContext, 'models'>, q: string): WhereOptions[] {
  const [first, ...rest] = q.split(/\s+/);
  const any: WhereOptions[] = [
    startsWith(ctx, 'email', q.toLowerCase()),
    startsWith(ctx, 'first_name', q),
    startsWith(ctx, 'last_name', q),
    startsWith(ctx, 'employee_id', q),
  ];
  if (rest.length) any.push({ [Op.and]: [startsWith(ctx, 'first_name', first!), startsWith(ctx, 'last_name', rest.join(' '))] });
  return any;
}

export async function searchMembers(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: SearchQuery): Promise<{ members: MemberView[]; nextAfterId: number | null }> {
  const { models } = ctx;
  const id: Record<symbol, unknown> = { [Op.gt]: query.afterId };
  if (query.departmentId !== undefined) {
    const department = await models.Department.findOne({ where: { account_id: accountId, id: query.departmentId } });
    if (!department) throw notFound(`No department ${query.departmentId}`);
    id[Op.in] = literal(`(SELECT member_id FROM member_departments WHERE department_id = ${department.id})`);
  }
  const where: WhereOptions = { account_id: accountId, id };
  if (query.status !== 'all') Object.assign(where, { disabled: query.status === 'deactivated' });
  const q = query.q?.trim();
  const limit = query.perPage + 1;
  let rows;
  if (!q) rows = await models.TeamMember.findAll({ where, order: [['id', 'ASC']], limit });
  else {
    // One OR over four columns would read the account's members in id order until a page matched (all 100,000 for
    // a rare name); each way of matching reads its own index instead, and the first ids of their union make the page.
    const found = await Promise.all(
      textMatches(ctx, q).map((match) => models.TeamMember.findAll({ where: { ...where, [Op.and]: [match] }, attributes: ['id'], order: [['id', 'ASC']], limit, raw: true })),
    );
    const ids = [...new Set(found.flat().map((r) => r.id))].sort((a, b) => a - b).slice(0, limit);
    rows = ids.length ? await models.TeamMember.findAll({ where: { account_id: accountId, id: ids }, order: [['id', 'ASC']] }) : [];
  }
  const page = rows.slice(0, query.perPage);
  return { members: await loadViews(ctx, accountId, page), nextAfterId: rows.length > query.perPage ? page.at(-1)!.id : null };
}

/** The account's departments by name, for a filter (without the member counts the departments page reads). */
export async function departmentChoices(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<Array<{ id: number; name: string }>> {
  const { models } = ctx;
  const rows = await models.Department.findAll({ where: { account_id: accountId }, attributes: ['id', 'name'], order: [['name_key', 'ASC']] });
  return rows.map((d) => ({ id: d.id, name: d.name }));
}

export interface ErasureReach {
  /** Sends a campaign or an automation made to the member: their recipient rows lose name, address and rendered card. */
  sends: number;
  departments: number;
  customValues: number;
  reports: number;
}

/** What erasing the member reaches (read before the erasure, for its confirmation page). */
export async function erasureReach(ctx: Pick<ServiceContext, 'models'>, accountId: number, memberId: number): Promise<ErasureReach> {
  const { models } = ctx;
  const [campaign, automation, departments, customValues, reports] = await Promise.all([
    models.CampaignRecipient.count({ where: { account_id: accountId, member_id: memberId, send_id: { [Op.ne]: null } } }),
    models.AutomationSend.count({ where: { account_id: accountId, member_id: memberId, send_id: { [Op.ne]: null } } }),
    models.MemberDepartment.count({ where: { member_id: memberId } }),
    models.MemberCustomValue.count({ where: { member_id: memberId } }),
    models.TeamMember.count({ where: { account_id: accountId, manager_id: memberId } }),
  ]);
  return { sends: campaign + automation, departments, customValues, reports };
}
