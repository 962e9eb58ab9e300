// The console's directory: the members table (search by email, name or employee id prefix, status and department
// filters, keyset paging as the key API's list pages) and the departments with their member counts. The member
// editor, status changes and erasure are in ./directory-member.ts; the CSV import has its own page.
import { z } from 'zod';
import { notFound } from '../../../lib/errors.ts';
import { listDepartments } from '../../../services/directory/departments.ts';
import { departmentChoices, searchMembers } from '../../../services/directory/search.ts';
import type { MemberView } from '../../../services/directory/view.ts';
import { definePage, page, seeOther, type AnyRoute } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { fromDigits, numericId, queryInt } from '../../schema-helpers.ts';
import { memberPageRoutes } from './member.ts';

export const DIRECTORY = `${CONSOLE_PREFIX}/directory`;
export const MEMBERS = `${DIRECTORY}/members`;

const MembersQuery = z.object({
  q: z.string().trim().max(200, 'At most 200 characters').optional(),
  status: z.enum(['active', 'deactivated', 'all'], { error: 'Choose active, deactivated or all' }).default('active'),
  department: numericId().optional(),
  after: numericId(0).default(0),
  perPage: z.preprocess(fromDigits, queryInt().min(1).max(200)).default(50),
});
type MembersQuery = z.output<typeof MembersQuery>;

const NOTICES: Record<string, string> = {
  erased: 'The member is erased: their data is gone from the directory and from the cards sent to them.',
};

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'deactivated', label: 'Deactivated' },
  { value: 'all', label: 'All' },
];

/** The list's URL with these filters (defaults left out), after a member id when paging on. */
function listLink(query: Partial<MembersQuery>, after?: number): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.status && query.status !== 'active') params.set('status', query.status);
  if (query.department) params.set('department', String(query.department));
  if (query.perPage && query.perPage !== 50) params.set('perPage', String(query.perPage));
  if (after) params.set('after', String(after));
  const text = params.toString();
  return text ? `${MEMBERS}?${text}` : MEMBERS;
}

function row(m: MemberView) {
  const name = [m.first_name, m.last_name].filter(Boolean).join(' ');
  return { id: m.id, name, email: m.email, employee_id: m.employee_id, job_position: m.job_position, departments: m.departments.join(', '), hire_date: m.hire_date, timezone: m.timezone, disabled: m.disabled };
}

// The optional columns, shown only when a member on the page has a value: most directories fill a few of them, and
// eight columns do not fit a laptop's width.
const OPTIONAL_COLUMNS = ['employee_id', 'job_position', 'departments', 'hire_date', 'timezone'] as const;

function usedColumns(rows: Array<ReturnType<typeof row>>): Record<(typeof OPTIONAL_COLUMNS)[number], boolean> {
  return Object.fromEntries(OPTIONAL_COLUMNS.map((column) => [column, rows.some((r) => Boolean(r[column]))])) as Record<(typeof OPTIONAL_COLUMNS)[number], boolean>;
}

export const directoryPageRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'view' },
    path: '/directory',
    async handler() {
      return seeOther(MEMBERS);
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'view' },
    path: '/directory/members',
    // The query is read here, not by a route contract: a bad filter shows the form again with the reason beside it.
    async handler(_input, { services, account, koa }) {
      const raw = Object.fromEntries(Object.entries(koa.query).filter(([, v]) => typeof v === 'string' && v !== '')) as Record<string, string>;
      const parsed = MembersQuery.safeParse(raw);
      const departments = await departmentChoices(services, account.id);
      const errors: Record<string, string> = {};
      if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
      const query: MembersQuery = parsed.success ? parsed.data : { q: raw.q, status: 'active', after: 0, perPage: 50 };
      // Another account's department (or an unknown one) as a filter is a 404, as an id filter of the key API is.
      if (query.department !== undefined && !departments.some((d) => d.id === query.department)) throw notFound(`No department ${query.department}`);
      const result = parsed.success ? await searchMembers(services, account.id, { q: query.q, status: query.status, departmentId: query.department, afterId: query.after, perPage: query.perPage }) : { members: [], nextAfterId: null };
      const filtered = Boolean(query.q || query.department || query.status !== 'active');
      const rows = result.members.map(row);
      const first = query.after > 0 ? listLink(query) : undefined;
      const next = result.nextAfterId !== null ? listLink(query, result.nextAfterId) : undefined;
      return page(
        {
          title: 'Members',
          view: 'directory-members',
          styles: ['directory.css'],
          notice: NOTICES[String(koa.query.done)],
          q: raw.q ?? '',
          statuses: STATUS_OPTIONS.map((s) => ({ ...s, selected: s.value === (raw.status ?? 'active') })),
          departments: departments.map((d) => ({ ...d, selected: d.id === query.department })),
          errors,
          members: rows,
          columns: usedColumns(rows),
          filtered,
          first,
          next,
          pager: Boolean(first || next),
        },
        Object.keys(errors).length ? 400 : undefined,
      );
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'view' },
    path: '/directory/departments',
    async handler(_input, { services, account }) {
      const departments = await listDepartments(services, account.id);
      return page({
        title: 'Departments',
        view: 'directory-departments',
        styles: ['directory.css'],
        departments: departments.map(({ department, members }) => ({
          name: department.name,
          members,
          created_at: department.created_at.toISOString(),
          href: listLink({ status: 'all', department: department.id }),
        })),
      });
    },
  }),
  ...memberPageRoutes,
];
