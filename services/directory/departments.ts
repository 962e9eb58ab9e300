// The account's departments (created by name by member upserts).
import type { ServiceContext } from '../context.ts';
import type { Department } from '../../models/Department.ts';

export async function listDepartments(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<Array<{ department: Department; members: number }>> {
  const { models } = ctx;
  const departments = await models.Department.findAll({ where: { account_id: accountId }, order: [['name_key', 'ASC']] });
  const counts = departments.length
    ? ((await models.MemberDepartment.count({ where: { department_id: departments.map((d) => d.id) }, group: ['department_id'] })) as unknown as Array<{ department_id: number; count: number }>)
    : [];
  return departments.map((department) => ({ department, members: Number(counts.find((c) => c.department_id === department.id)?.count ?? 0) }));
}
