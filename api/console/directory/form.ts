// The member editor's form read as the key API's upsert fields (the same zod contract as `POST
// /pub/team-member-actions/upsert`): blank fields clear, departments are typed comma-separated, the account's custom
// date fields are `custom_fields.<key>`. A refusal is placed beside the field it names.
import { z } from 'zod';
import type { ApiError } from '../../../lib/errors.ts';
import type { CustomField } from '../../../models/CustomField.ts';
import type { MemberFieldsInput } from '../../../services/directory/upsert.ts';
import type { MemberView } from '../../../services/directory/view.ts';
import { MEMBER_FIELDS } from '../../directory/schema.ts';
import { zoneOptions } from '../kit/time-zones.ts';

/** The standard fields in the editor's order: name, label, input type, hint. */
const STANDARD = [
  { name: 'email', label: 'Email', type: 'email', required: true, autocomplete: 'off', hint: 'Work address; lower-cased when saved.' },
  { name: 'first_name', label: 'First name', type: 'text', autocomplete: 'off' },
  { name: 'last_name', label: 'Last name', type: 'text', autocomplete: 'off' },
  { name: 'employee_id', label: 'Employee ID', type: 'text', autocomplete: 'off', hint: 'Your HR system’s id; unique in the directory.' },
  { name: 'job_position', label: 'Job position', type: 'text', autocomplete: 'off' },
  { name: 'departments', label: 'Departments', type: 'text', autocomplete: 'off', hint: 'Names separated by commas; a new name makes a new department.' },
  { name: 'manager_email', label: 'Manager’s email', type: 'email', autocomplete: 'off', hint: 'Linked when the manager is in the directory, now or later.' },
  { name: 'hire_date', label: 'Hire date', type: 'date' },
  { name: 'date_of_birth', label: 'Date of birth', type: 'date', hint: 'Birthday automations use it; webhook events hide the year.' },
  { name: 'profile_image_url', label: 'Profile image URL', type: 'url', autocomplete: 'off', hint: 'An http(s) address.' },
  { name: 'timezone', label: 'Time zone', type: 'timezone', hint: 'Where the member is, for cards sent at local time; none: the account’s default zone (Settings, Time and quiet hours).' },
] as const;

const MAX_LENGTH: Record<string, number> = { email: 254, first_name: 100, last_name: 100, employee_id: 100, job_position: 200, departments: 5200, manager_email: 254, profile_image_url: 2048 };

const MemberFields = z.object(MEMBER_FIELDS);

const customName = (key: string) => `custom_fields.${key}`;

/** A saved member as the editor's fields hold it (empty text for "none"). */
export function formValuesOf(view: MemberView): Record<string, string> {
  const values: Record<string, string> = {};
  for (const { name } of STANDARD) {
    const value = name === 'departments' ? view.departments.join(', ') : view[name];
    values[name] = value ?? '';
  }
  for (const [key, value] of Object.entries(view.custom_fields)) values[customName(key)] = value;
  return values;
}

/** The editor's fields with their values and errors, the account's custom date fields after the standard ones. */
export function formFields(custom: CustomField[], values: Record<string, string>, errors: Record<string, string>) {
  const fields = [
    ...STANDARD.map((f) => ({ hint: undefined, required: false, autocomplete: undefined, ...f })),
    ...custom.map((f) => ({ name: customName(f.field_key), label: f.label, type: 'date', required: Boolean(f.required), autocomplete: undefined, hint: `Custom date field ${f.field_key}.` })),
  ];
  return fields.map((f, i) => {
    const value = values[f.name] ?? '';
    // The zone is the console's time-zone picker (a "none" option first); every other field is an input.
    const picker = f.type === 'timezone' ? { zones: zoneOptions(value), blank: 'None (the account’s default)' } : {};
    return { ...f, ...picker, id: `member-field-${i}`, value, error: errors[f.name], maxlength: MAX_LENGTH[f.name] };
  });
}

export type FormCheck = { ok: true; fields: MemberFieldsInput } | { ok: false; errors: Record<string, string> };

/** The posted form as upsert fields, or the message of each refused field by its form name. */
export function memberFieldsOf(form: Record<string, string>, custom: CustomField[]): FormCheck {
  const input: Record<string, unknown> = {};
  for (const { name } of STANDARD) input[name] = form[name] ?? '';
  input.departments = (form.departments ?? '').split(',');
  input.custom_fields = Object.fromEntries(custom.map((f) => [f.field_key, form[customName(f.field_key)] ?? '']));
  const parsed = MemberFields.safeParse(input);
  if (parsed.success) return { ok: true, fields: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const [first, second] = issue.path.map(String);
    const name = first === 'custom_fields' && second !== undefined ? customName(second) : first!;
    errors[name] ??= sentence(issue.message);
  }
  return { ok: false, errors };
}

/**
 * A refusal of the directory's rules placed beside its field when its message names one (`email: another member…`,
 * `custom_fields.start is required`); otherwise the page's own error.
 */
export function placeError(err: ApiError, names: string[]): { errors: Record<string, string>; error?: string } {
  const name = names.find((n) => err.message.startsWith(`${n}:`) || err.message.startsWith(`${n} `));
  if (!name) return { errors: {}, error: err.message };
  const rest = err.message.slice(name.length).replace(/^:\s*/, '').trim();
  return { errors: { [name]: rest.startsWith('is required') ? 'Required.' : sentence(rest) } };
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
