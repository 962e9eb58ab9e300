// Directory endpoints: upsert, find, list, deactivate, reactivate, delete (erasure), fields, departments, sample.
import { listDepartments } from '../../services/directory/departments.ts';
import { settableFields } from '../../services/directory/custom-fields.ts';
import { eraseMember, findMember, listMembers, setMemberDisabled, type MemberKey } from '../../services/directory/members.ts';
import { sampleMemberEvent } from '../../services/directory/sample.ts';
import { upsertMember, type MemberFieldsInput } from '../../services/directory/upsert.ts';
import { importMembers } from '../../services/directory/import.ts';
import { defineRoute } from '../http/route.ts';
import { ImportAnswer, ImportBody, importRowsOf } from './import.ts';
import { presentMember, saved } from './present.ts';
import {
  CursorMeta,
  Deleted,
  DepartmentList,
  FieldList,
  FindAnswer,
  KNOWN_UPSERT_FIELDS,
  ListQuery,
  Member,
  MemberEvent,
  MemberKeyBody,
  MemberKeyQuery,
  MemberList,
  SampleQuery,
  UpsertAnswer,
  UpsertBody,
} from './schema.ts';

const tags = ['directory'];
const view = { area: 'directory', level: 'view' } as const;
const manage = { area: 'directory', level: 'manage' } as const;
const base = '/pub/team-member-actions';

const memberKey = (input: { email?: string | undefined; employee_id?: string | undefined }): MemberKey =>
  input.email !== undefined ? { field: 'email', value: input.email } : { field: 'employee_id', value: input.employee_id! };

export const directoryRoutes = [
  defineRoute({
    method: 'post',
    path: `${base}/upsert`,
    audit: { none: 'the directory upsert is not audited (decisions.md, Teams): the member’s own history is the record' },
    summary: 'Creates or updates a member (matched by email, or by employee_id); only the fields sent change',
    tags,
    access: manage,
    body: UpsertBody,
    response: UpsertAnswer,
    async handler({ body }, { services, caller }) {
      const { match_field, dry_run, source, ...rest } = body;
      const fields: MemberFieldsInput = {};
      const ignored: string[] = [];
      for (const [key, value] of Object.entries(rest)) {
        if (KNOWN_UPSERT_FIELDS.has(key)) Object.assign(fields, { [key]: value });
        else ignored.push(key);
      }
      const result = await upsertMember(services, caller.account.id, { fields, matchField: match_field, dryRun: dry_run, source, ignored });
      return { ...result, member: presentMember(result.member) };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${base}/import`,
    audit: 'directory.import',
    summary: 'Imports members from CSV text through a column mapping (at most 50,000 rows): a dry run counts creates, updates, unchanged and errors; the real run writes in batches and emits no member events',
    tags,
    access: manage,
    body: ImportBody,
    bodyLimitBytes: 16 * 1024 * 1024,
    response: ImportAnswer,
    async handler({ body }, { services, caller }) {
      const rows = await importRowsOf(services.models, caller.account.id, { csvContent: body.csvContent, mapping: body.mapping, matchField: body.match_field });
      return importMembers(services, caller.account.id, { rows, matchField: body.match_field, dryRun: body.dry_run });
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/find`,
    summary: 'One member by email or employee_id (deactivated ones included); `data` is {} when none matches',
    tags,
    access: view,
    query: MemberKeyQuery,
    response: FindAnswer,
    async handler({ query }, { services, caller }) {
      const member = await findMember(services, caller.account.id, memberKey(query));
      return member ? saved(member) : {};
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/list`,
    summary: 'Members in id order, cursor-paged for reconciliation (after_id = the previous meta.next_after_id)',
    tags,
    access: view,
    query: ListQuery,
    response: MemberList,
    meta: CursorMeta,
    async handler({ query }, { services, caller }) {
      const page = await listMembers(services, caller.account.id, {
        status: query.status,
        perPage: query.perPage,
        afterId: query.after_id,
        updatedSince: query.updated_since,
      });
      return { data: page.members.map(saved), meta: { next_after_id: page.nextAfterId, has_more: page.hasMore } };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${base}/deactivate`,
    audit: 'directory.deactivate',
    summary: 'Deactivates a member (frees its seat, stops its automated cards); repeating it changes nothing',
    tags,
    access: manage,
    body: MemberKeyBody,
    response: Member,
    async handler({ body }, { services, caller }) {
      return saved(await setMemberDisabled(services, caller.account.id, { key: memberKey(body), source: body.source }, true));
    },
  }),
  defineRoute({
    method: 'post',
    path: `${base}/reactivate`,
    audit: 'directory.reactivate',
    summary: 'Reactivates a deactivated member; needs a free seat',
    tags,
    access: manage,
    body: MemberKeyBody,
    response: Member,
    async handler({ body }, { services, caller }) {
      return saved(await setMemberDisabled(services, caller.account.id, { key: memberKey(body), source: body.source }, false));
    },
  }),
  defineRoute({
    method: 'post',
    path: `${base}/delete`,
    audit: 'directory.delete',
    summary: 'Erases a member for good (GDPR erasure): personal data leaves every table',
    tags,
    access: manage,
    body: MemberKeyBody,
    response: Deleted,
    async handler({ body }, { services, caller }) {
      return { deleted: [await eraseMember(services, caller.account.id, { key: memberKey(body), source: body.source })] };
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/fields`,
    summary: 'Every field an upsert can set, with the account\'s active custom date fields',
    tags,
    access: view,
    response: FieldList,
    async handler(_input, { services, caller }) {
      return settableFields(services, caller.account.id);
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/departments`,
    summary: 'The account\'s departments, by name',
    tags,
    access: view,
    response: DepartmentList,
    async handler(_input, { services, caller }) {
      const departments = await listDepartments(services, caller.account.id);
      return departments.map(({ department, members }) => ({ id: department.id, name: department.name, members, createdat: department.created_at.toISOString() }));
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/sample`,
    summary: 'One representative member-change event of a type, made of invented data',
    tags,
    access: view,
    query: SampleQuery,
    response: MemberEvent,
    async handler({ query }, { services }) {
      return sampleMemberEvent(query.event_type, services.now());
    },
  }),
];
