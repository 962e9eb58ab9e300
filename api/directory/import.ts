// The import's contracts and the CSV's rows read as upsert fields through a mapping (column name → member field),
// shared by the key API's `POST /pub/team-member-actions/import` and the console's import wizard.
import { z } from 'zod';
import { invalidParameter } from '../../lib/errors.ts';
import type { Models } from '../../models/index.ts';
import { activeCustomFields } from '../../services/directory/custom-fields.ts';
import { readImportCsv, type ImportCsv } from '../../services/directory/import-csv.ts';
import type { ImportRow } from '../../services/directory/import.ts';
import { flag } from '../schema-helpers.ts';
import { MEMBER_FIELDS } from './schema.ts';

/** The standard fields a column can fill (custom date fields are `custom_fields.<key>`). */
export const STANDARD_TARGETS = ['email', 'employee_id', 'first_name', 'last_name', 'job_position', 'departments', 'date_of_birth', 'hire_date', 'profile_image_url', 'manager_email', 'timezone'] as const;
const TARGET_LABELS: Record<(typeof STANDARD_TARGETS)[number], string> = {
  email: 'Email',
  employee_id: 'Employee id',
  first_name: 'First name',
  last_name: 'Last name',
  job_position: 'Job position',
  departments: 'Departments',
  date_of_birth: 'Date of birth',
  hire_date: 'Hire date',
  profile_image_url: 'Profile image URL',
  manager_email: 'Manager’s email',
  timezone: 'Time zone',
};
/** A departments cell holds names separated by this. */
export const DEPARTMENT_SEPARATOR = ';';

export const ImportBody = z.object({
  csvContent: z.string().min(1, 'the CSV is empty').describe('CSV text with a header row (`,` `;` or tab separated); at most 10 MB and 50,000 data rows'),
  mapping: z
    .record(z.string().max(200), z.string().max(100))
    .refine((m) => Object.values(m).some(Boolean), 'map at least one column')
    .describe(`CSV column name → member field: ${STANDARD_TARGETS.join(', ')} or custom_fields.<key>; "" ignores a column. A departments cell lists names separated by "${DEPARTMENT_SEPARATOR}"`),
  match_field: z.enum(['email', 'employee_id']).default('email').describe('which mapped field decides between create and update'),
  dry_run: flag.describe('true: apply every rule and count, writing nothing'),
});

export const ImportAnswer = z.object({
  dry_run: z.boolean(),
  rows: z.number().int().describe('data rows in the file'),
  creates: z.number().int(),
  updates: z.number().int(),
  unchanged: z.number().int(),
  errors: z.number().int().describe('rows refused (nothing written for them)'),
  problems: z.array(z.object({ row: z.number().int().describe('the line of the file the row starts on (the header is line 1)'), message: z.string() })).describe('the first 100 rows refused'),
  problems_truncated: z.boolean(),
});

/** The fields a mapping may name for this account (standard ones, then its active custom dates). */
export async function importTargets(models: Models, accountId: number): Promise<Array<{ value: string; label: string }>> {
  const custom = await activeCustomFields({ models }, accountId);
  return [
    ...STANDARD_TARGETS.map((value) => ({ value, label: `${TARGET_LABELS[value]} (${value})` })),
    ...custom.map((f) => ({ value: `custom_fields.${f.field_key}`, label: `${f.label} (custom_fields.${f.field_key})` })),
  ];
}

const RowFields = z.object(MEMBER_FIELDS);

/** A mapping checked against the CSV's header and the account's fields: 400 naming what is wrong. */
function checkMapping(csv: ImportCsv, mapping: Record<string, string>, targets: Set<string>, matchField: string): Map<string, number> {
  const columns = new Map<string, number>();
  const used = new Map<string, string>();
  for (const [column, target] of Object.entries(mapping)) {
    if (!target) continue;
    const at = csv.headers.indexOf(column.trim());
    if (at < 0) throw invalidParameter(`mapping: the CSV has no column "${column}" (its columns: ${csv.headers.filter(Boolean).join(', ')})`);
    if (!targets.has(target)) throw invalidParameter(`mapping.${column}: "${target}" is not a member field (fields: ${[...targets].join(', ')})`);
    const other = used.get(target);
    if (other !== undefined) throw invalidParameter(`mapping: columns "${other}" and "${column}" both fill ${target}`);
    used.set(target, column);
    columns.set(target, at);
  }
  if (!columns.has(matchField)) throw invalidParameter(`mapping: no column fills ${matchField}, the match field`);
  return columns;
}

/** One row's cells as upsert fields (a blank cell leaves the field as it is), or why it cannot be. */
function rowOf(line: number, cells: string[], columns: Map<string, number>, width: number): ImportRow {
  if (cells.length > width) return { line, problem: `the row has ${cells.length} cells; the header has ${width} columns` };
  const raw: Record<string, unknown> = {};
  const custom: Record<string, string> = {};
  for (const [target, at] of columns) {
    const value = (cells[at] ?? '').trim();
    if (value === '') continue;
    if (target.startsWith('custom_fields.')) custom[target.slice('custom_fields.'.length)] = value;
    else if (target === 'departments') raw.departments = value.split(DEPARTMENT_SEPARATOR);
    else raw[target] = value;
  }
  if (Object.keys(custom).length) raw.custom_fields = custom;
  const parsed = RowFields.safeParse(raw);
  if (parsed.success) return { line, fields: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { line, problem: `${issue.path.join('.')}: ${issue.message}` };
}

/** The CSV's rows as the import service takes them (413/422 for the file, 400 for the mapping). */
export async function importRowsOf(models: Models, accountId: number, input: { csvContent: string; mapping: Record<string, string>; matchField: string }): Promise<ImportRow[]> {
  const csv = readImportCsv(input.csvContent);
  const targets = new Set((await importTargets(models, accountId)).map((t) => t.value));
  const columns = checkMapping(csv, input.mapping, targets, input.matchField);
  return csv.rows.map(({ line, cells }) => rowOf(line, cells, columns, csv.headers.length));
}
