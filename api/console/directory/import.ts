// The console's directory import wizard: upload a CSV (a file, or pasted text) → map its columns to member fields
// (selects prefilled from the header names) → a dry run with the counts and the problem rows → apply → the result.
// No state is kept between steps: the CSV text travels in the forms' hidden fields. The steps call the same code as
// the key API's `POST /pub/team-member-actions/import` (api/directory/import.ts, services/directory/import.ts).
import type { Context } from 'koa';
import { ApiError, malformedForm } from '../../../lib/errors.ts';
import { readImportCsv, type ImportCsv } from '../../../services/directory/import-csv.ts';
import { importMembers, type ImportOutcome } from '../../../services/directory/import.ts';
import { DEPARTMENT_SEPARATOR, importRowsOf, importTargets } from '../../directory/import.ts';
import { readBodyBytes, readFormBody } from '../../http/body.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import type { ApiServices } from '../../context.ts';

const BASE = `${CONSOLE_PREFIX}/directory/import`;
const MB = 1024 * 1024;
/** A 10 MB CSV urlencoded (every byte escaped at worst) with the mapping beside it. */
const FORM_LIMIT = 32 * MB;
const TITLE = 'Import members';
const MATCH_FIELDS = [
  { value: 'email', label: 'Email' },
  { value: 'employee_id', label: 'Employee id' },
];
// Header spellings people use for the standard fields, beside the field's own name (compared as lower-case words).
const SYNONYMS: Record<string, string[]> = {
  email: ['e mail', 'mail', 'email address', 'work email'],
  employee_id: ['employee', 'employee number', 'id', 'staff id', 'external id'],
  first_name: ['first', 'firstname', 'given name', 'forename'],
  last_name: ['last', 'lastname', 'surname', 'family name'],
  job_position: ['job', 'position', 'title', 'job title', 'role'],
  departments: ['department', 'team', 'teams'],
  date_of_birth: ['birthday', 'birth date', 'dob', 'birthdate'],
  hire_date: ['start date', 'hired', 'hired on', 'joined'],
  profile_image_url: ['photo', 'avatar', 'picture', 'image'],
  manager_email: ['manager', 'manager mail'],
  timezone: ['time zone', 'tz', 'zone', 'iana time zone'],
};
const words = (s: string) => s.trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** The field a header most likely fills, or '' (the label of a custom field counts too). */
function guessTarget(header: string, targets: Array<{ value: string; label: string }>): string {
  const h = words(header);
  for (const t of targets) {
    const key = t.value.startsWith('custom_fields.') ? t.value.slice('custom_fields.'.length) : t.value;
    const label = t.label.replace(/\s*\([^)]*\)$/, '');
    if (h === words(key) || h === words(t.value) || h === words(label) || SYNONYMS[t.value]?.includes(h)) return t.value;
  }
  return '';
}

/** The CSV text of a step's form: the uploaded file (multipart) or the pasted / carried text. */
async function readWizardBody(ctx: Context, limit: number): Promise<Record<string, string>> {
  if (!ctx.request.is('multipart/form-data')) return readFormBody(ctx, limit);
  const body = await readBodyBytes(ctx, limit);
  let form: FormData;
  try {
    form = await new Request('http://upload.invalid/', { method: 'POST', headers: { 'content-type': ctx.get('content-type') }, body }).formData();
  } catch {
    throw malformedForm('The upload is not a valid multipart form');
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value === 'string') fields[name] = value;
    else if (name === 'file' && value.size > 0) fields.csv = await value.text();
  }
  if (!fields.csv && fields.csv_text) fields.csv = fields.csv_text;
  return fields;
}

function uploadPage(error?: string, status?: number): PageResult {
  return page({ title: TITLE, view: 'directory-import', styles: ['directory-import.css'], step: 'upload', error, separator: DEPARTMENT_SEPARATOR }, status);
}

interface MappingState {
  csv: string;
  parsed: ImportCsv;
  targets: Array<{ value: string; label: string }>;
  /** Chosen targets by column index (a first visit: guessed from the headers). */
  chosen: string[];
  matchField: string;
}

/** The mapping selects with their options marked, and the hidden fields that carry the wizard's state. */
function mappingView(state: MappingState) {
  const { parsed, targets, chosen } = state;
  const first = parsed.rows[0]?.cells ?? [];
  return {
    csv: state.csv,
    rowCount: parsed.rows.length,
    columns: parsed.headers.map((header, i) => ({
      index: i,
      header: header || `Column ${i + 1}`,
      sample: (first[i] ?? '').trim(),
      options: [{ value: '', label: 'Do not import', selected: !chosen[i] }, ...targets.map((t) => ({ ...t, selected: t.value === chosen[i] }))],
    })),
    chosen: parsed.headers.map((_, i) => ({ index: i, value: chosen[i] ?? '' })),
    matchField: state.matchField,
    matchFields: MATCH_FIELDS.map((m) => ({ ...m, selected: m.value === state.matchField })),
  };
}

function mappingPage(state: MappingState, extra: { error?: string; outcome?: ImportOutcome } = {}, status?: number): PageResult {
  const { outcome } = extra;
  return page(
    {
      title: TITLE,
      view: 'directory-import',
      styles: ['directory-import.css'],
      step: outcome ? 'review' : 'map',
      error: extra.error,
      separator: DEPARTMENT_SEPARATOR,
      ...mappingView(state),
      outcome,
      canApply: outcome ? outcome.creates + outcome.updates > 0 : false,
      moreProblems: outcome ? outcome.errors - outcome.problems.length : 0,
    },
    status,
  );
}

/** The wizard's state as a later step's form carries it; the CSV read again (it was read once already). */
async function stateOf(services: ApiServices, accountId: number, form: Record<string, string>): Promise<MappingState> {
  const csv = form.csv ?? '';
  const parsed = readImportCsv(csv);
  const targets = await importTargets(services.models, accountId);
  const given = parsed.headers.some((_, i) => form[`map_${i}`] !== undefined);
  const chosen = parsed.headers.map((h, i) => (given ? (form[`map_${i}`] ?? '') : guessTarget(h, targets)));
  const matchField = MATCH_FIELDS.some((m) => m.value === form.match_field) ? form.match_field! : 'email';
  return { csv, parsed, targets, chosen, matchField };
}

/** The chosen targets as the key API's mapping (column name → field). */
const mappingOf = (state: MappingState) =>
  Object.fromEntries(state.parsed.headers.flatMap((h, i): Array<[string, string]> => (h && state.chosen[i] ? [[h, state.chosen[i]]] : [])));

const refused = (err: unknown): err is ApiError => err instanceof ApiError && err.status < 500 && err.status !== 404;

async function runStep(services: ApiServices, accountId: number, state: MappingState, dryRun: boolean): Promise<ImportOutcome> {
  const rows = await importRowsOf(services.models, accountId, { csvContent: state.csv, mapping: mappingOf(state), matchField: state.matchField });
  return importMembers(services, accountId, { rows, matchField: state.matchField as 'email' | 'employee_id', dryRun });
}

const count = (v: unknown) => (typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : 0);

export const directoryImportPageRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'manage' },
    path: '/directory/import',
    async handler() {
      return uploadPage();
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'directory', level: 'manage' },
    path: '/directory/import/map',
    audit: { none: 'the mapping step reads the file; nothing is written' },
    bodyLimitBytes: FORM_LIMIT,
    readBody: readWizardBody,
    async handler({ raw }, { services, account }) {
      const form = raw as Record<string, string>;
      if (!form.csv?.trim()) return uploadPage('Choose a CSV file (or paste its text) to import.', 422);
      try {
        return mappingPage(await stateOf(services, account.id, form));
      } catch (err) {
        if (!refused(err)) throw err;
        return uploadPage(err.message, err.status);
      }
    },
  }),
  ...(['dry-run', 'apply'] as const).map((step) =>
    definePage({
      method: 'post',
      role: { area: 'directory', level: 'manage' },
      path: `/directory/import/${step}`,
      audit: step === 'apply' ? 'directory.import' : { none: 'a dry run writes nothing' },
      bodyLimitBytes: FORM_LIMIT,
      readBody: readWizardBody,
      async handler({ raw }, { services, account }) {
        const form = raw as Record<string, string>;
        if (!form.csv?.trim()) return uploadPage('Choose a CSV file (or paste its text) to import.', 422);
        let state: MappingState | undefined;
        try {
          state = await stateOf(services, account.id, form);
          const outcome = await runStep(services, account.id, state, step === 'dry-run');
          if (step === 'dry-run') return mappingPage(state, { outcome });
          const query = new URLSearchParams({
            creates: String(outcome.creates),
            updates: String(outcome.updates),
            unchanged: String(outcome.unchanged),
            errors: String(outcome.errors),
            lines: outcome.problems.slice(0, 20).map((p) => p.row).join(','),
          });
          return seeOther(`${BASE}/done?${query.toString()}`);
        } catch (err) {
          if (!refused(err)) throw err;
          // The file itself refused: back to the upload; a mapping refused: the mapping again with the reason.
          return state ? mappingPage(state, { error: err.message }, err.status) : uploadPage(err.message, err.status);
        }
      },
    }),
  ),
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'manage' },
    path: '/directory/import/done',
    async handler(_input, { koa }) {
      const q = koa.query;
      const lines = typeof q.lines === 'string' ? q.lines.split(',').filter((l) => /^\d{1,6}$/.test(l)) : [];
      const result = { creates: count(q.creates), updates: count(q.updates), unchanged: count(q.unchanged), errors: count(q.errors) };
      return page({ title: 'Import finished', view: 'directory-import', styles: ['directory-import.css'], step: 'done', notice: 'The import is applied. Imports send no member events (no webhooks).', result, lines: lines.join(', ') });
    },
  }),
];
