// Contracts of the directory endpoints (/pub/team-member-actions/...) and of member-change events.
import { z } from 'zod';
import { MEMBER_EVENT_TYPES } from '../../services/directory/events.ts';
import { flag, fromDigits, numericId, queryInt, timeZoneName, named } from '../schema-helpers.ts';

const blank = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');

/** A field an upsert may clear: `""` (or blank) and null both mean "no value". */
const clearable = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (blank(v) ? null : v), schema.nullable());

export const email = z.string().trim().toLowerCase().pipe(z.email('expected an email address').max(254));
const date = z.iso.date('expected a date YYYY-MM-DD');
const name = (max: number) => z.string().trim().max(max);

const departments = z.preprocess(
  (v) => (blank(v) ? [] : v),
  z
    .array(z.string().max(100, 'a department name has at most 100 characters'))
    .max(50)
    .transform((names) => {
      // Trimmed, blanks dropped, one of each name compared case-insensitively (the first spelling wins).
      const seen = new Map<string, string>();
      for (const n of names.map((s) => s.trim()).filter(Boolean)) if (!seen.has(n.toLowerCase())) seen.set(n.toLowerCase(), n);
      return [...seen.values()];
    }),
);

export const MEMBER_FIELDS = {
  email: clearable(email).optional().describe('required to create; trimmed and lower-cased'),
  employee_id: clearable(z.string().trim().max(100)).optional().describe('stable external id, unique in the account'),
  first_name: clearable(name(100)).optional(),
  last_name: clearable(name(100)).optional(),
  job_position: clearable(name(200)).optional(),
  departments: departments.optional().describe('department names; created when new, matched case-insensitively; `[]` clears'),
  date_of_birth: clearable(date).optional(),
  hire_date: clearable(date).optional(),
  profile_image_url: clearable(z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).max(2048)).optional(),
  manager_email: clearable(email).optional().describe('links the manager; resolved later if the manager is not in the directory yet'),
  timezone: clearable(timeZoneName).optional().describe('IANA time zone name, e.g. Asia/Tokyo (canonicalised: asia/tokyo → Asia/Tokyo); an unknown zone is 400'),
  custom_fields: z.record(z.string().max(64), clearable(date)).optional().describe('custom date fields by key (see /fields)'),
};

const UPSERT_OPTIONS = {
  match_field: z.enum(['email', 'employee_id']).default('email'),
  dry_run: flag.default(false).describe('apply every rule and answer as the real call would, saving nothing'),
  source: z.enum(['api', 'zapier']).default('api').describe('`zapier` marks an integration platform\'s writes (the events\' `source`)'),
};

/** Unknown fields are accepted and listed back in `ignored_fields`. */
export const UpsertBody = z.looseObject({ ...MEMBER_FIELDS, ...UPSERT_OPTIONS });
export const KNOWN_UPSERT_FIELDS = new Set([...Object.keys(MEMBER_FIELDS), ...Object.keys(UPSERT_OPTIONS)]);

const keyFields = { email: email.optional(), employee_id: z.string().trim().min(1).max(100).optional() };
const exactlyOneKey = (v: { email?: string | undefined; employee_id?: string | undefined }, ctx: z.RefinementCtx) => {
  if ((v.email === undefined) === (v.employee_id === undefined)) ctx.addIssue({ code: 'custom', message: 'give exactly one of email or employee_id' });
};
/** Exactly one of `email` / `employee_id` (else 400). */
export const MemberKeyQuery = z.object(keyFields).superRefine(exactlyOneKey);
export const MemberKeyBody = z
  .object({ ...keyFields, source: UPSERT_OPTIONS.source })
  .superRefine(exactlyOneKey);

export const Member = named('Member', z.object({
  id: z.number().int(),
  email: z.string(),
  employee_id: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  job_position: z.string().nullable(),
  departments: z.array(z.string()),
  date_of_birth: z.string().nullable().describe('YYYY-MM-DD, the real date (only event payloads mask the year)'),
  hire_date: z.string().nullable(),
  profile_image_url: z.string().nullable(),
  manager_email: z.string().nullable().describe('the linked manager, or the email still waiting for its member'),
  timezone: z.string().nullable().describe('the member’s IANA time zone, or null (the account’s default_timezone applies)'),
  custom_fields: z.record(z.string(), z.string()),
  disabled: z.union([z.literal(0), z.literal(1)]),
  createdat: z.string(),
  updatedat: z.string(),
}));

export const UpsertAnswer = z.object({
  action: z.enum(['created', 'updated', 'unchanged']),
  // Member's fields with its id overridden, spread rather than extended: an extended named schema is documented as
  // allOf [Member, the override], which no id satisfies as null.
  member: z.object({ ...Member.shape, id: z.number().int().nullable().describe('null only in a dry run that would create') }),
  changed_fields: z.array(z.string()),
  ignored_fields: z.array(z.string()).describe('body fields the directory does not know (nothing was done with them)'),
  dry_run: z.boolean(),
});

export const FindAnswer = z.union([Member, z.object({}).describe('no member matches')]);

export const Deleted = z.object({ deleted: z.array(z.number().int()) });

export const ListQuery = z.object({
  status: z.enum(['active', 'deactivated', 'all']).default('active'),
  perPage: z.preprocess(fromDigits, queryInt().min(1).max(500)).default(100),
  after_id: numericId(0).default(0).describe('the previous page\'s meta.next_after_id'),
  updated_since: z.iso
    .datetime({ offset: true, error: 'expected an ISO 8601 date-time, e.g. 2026-01-31T09:00:00.000Z' })
    .transform((s) => new Date(s))
    .optional()
    .describe('inclusive'),
});
export const MemberList = z.array(Member);
export const CursorMeta = z.object({ next_after_id: z.number().int().nullable(), has_more: z.boolean() });

export const FieldList = z.array(
  z.object({
    key: z.string(),
    label: z.string(),
    type: z.enum(['string', 'date', 'array']),
    required: z.boolean(),
    format: z.string().nullable(),
  }),
);

export const DepartmentList = z.array(z.object({ id: z.number().int(), name: z.string(), members: z.number().int(), createdat: z.string() }));

export const SampleQuery = z.object({ event_type: z.enum(MEMBER_EVENT_TYPES) });

const EventMember = Member.omit({ manager_email: true, custom_fields: true, createdat: true }).extend({
  date_of_birth: z.string().nullable().describe('the year is masked to 1800'),
});
const DeletedMember = z.object({ id: z.number().int(), email: z.string(), employee_id: z.string().nullable() });

/** A member-change event (webhook family 2), as delivered. */
export const MemberEvent = named('MemberEvent', z.object({
  event_id: z.uuid(),
  event_type: z.enum(MEMBER_EVENT_TYPES),
  timestamp: z.string(),
  source: z.enum(['api', 'zapier', 'ui', 'import']),
  changed_fields: z.array(z.string()).optional().describe('team_member_updated only'),
  member: z.union([EventMember, DeletedMember]).describe('team_member_deleted carries only id, email and employee_id'),
}));
