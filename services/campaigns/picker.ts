// What the console's campaign wizard offers to pick from: the eCards a campaign may copy (the account's enabled
// eCards outside campaign widgets, as saveCampaignEcards takes them) and the directory's active members, filtered
// by department or a name/email prefix, and every active member of the departments ticked.
import type { ServiceContext } from '../context.ts';
import { Op, type WhereOptions } from 'sequelize';

export interface PickableEcard {
  id: number;
  name: string;
  widget_name: string;
  self_hosted_url: string | null;
}

/** The eCards saveCampaignEcards accepts, by widget then display order (at most `limit`). */
export async function pickableEcards(ctx: Pick<ServiceContext, 'models'>, accountId: number, limit = 200): Promise<PickableEcard[]> {
  const { models } = ctx;
  const rows = await models.Ecard.findAll({
    where: { account_id: accountId, disabled: false },
    include: [{ model: models.Widget, attributes: ['name'], required: true, where: { is_campaign: false } }],
    order: [['widget_id', 'ASC'], ['display_order', 'ASC'], ['id', 'ASC']],
    limit,
  });
  return rows.map((e) => {
    const widget = (e as unknown as { Widget?: { name: string } }).Widget;
    return { id: e.id, name: e.name, widget_name: widget?.name ?? '', self_hosted_url: e.self_hosted_url };
  });
}

export interface PickableMember {
  id: number;
  email: string;
  name: string;
}

export interface MemberFilter {
  departmentId?: number | undefined;
  /** A prefix of the email, first name or last name. */
  prefix?: string | undefined;
  limit: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Active members (id order) matching the filter, at most `limit`, and whether there were more. */
export async function pickableMembers(ctx: Pick<ServiceContext, 'models'>, accountId: number, filter: MemberFilter): Promise<{ members: PickableMember[]; more: boolean }> {
  const { models } = ctx;
  const conditions: WhereOptions[] = [{ account_id: accountId, disabled: false }];
  if (filter.prefix) {
    const like = `${escapeLike(filter.prefix.trim().toLowerCase())}%`;
    conditions.push({ [Op.or]: [{ email: { [Op.like]: like } }, { first_name: { [Op.like]: like } }, { last_name: { [Op.like]: like } }] });
  }
  if (filter.departmentId) {
    const links = await models.MemberDepartment.findAll({ attributes: ['member_id'], where: { department_id: filter.departmentId }, raw: true });
    conditions.push({ id: links.map((l) => l.member_id) });
  }
  const rows = await models.TeamMember.findAll({
    attributes: ['id', 'email', 'first_name', 'last_name'],
    where: { [Op.and]: conditions },
    order: [['id', 'ASC']],
    limit: filter.limit + 1,
  });
  return {
    members: rows.slice(0, filter.limit).map((m) => ({ id: m.id, email: m.email, name: [m.first_name, m.last_name].filter(Boolean).join(' ') })),
    more: rows.length > filter.limit,
  };
}

/** The ids of the active members of the account's given departments (another account's department adds nobody). */
export async function activeMembersOfDepartments(ctx: Pick<ServiceContext, 'models'>, accountId: number, departmentIds: number[]): Promise<number[]> {
  const { models } = ctx;
  if (departmentIds.length === 0) return [];
  const departments = await models.Department.findAll({ attributes: ['id'], where: { account_id: accountId, id: departmentIds }, raw: true });
  if (departments.length === 0) return [];
  const links = await models.MemberDepartment.findAll({ attributes: ['member_id'], where: { department_id: departments.map((d) => d.id) }, raw: true });
  if (links.length === 0) return [];
  const members = await models.TeamMember.findAll({ attributes: ['id'], where: { account_id: accountId, disabled: false, id: [...new Set(links.map((l) => l.member_id))] }, raw: true });
  return members.map((m) => m.id);
}
