// Custom date fields an account defines for its members, and the list of every settable member field.
import type { ServiceContext } from '../context.ts';
import { UniqueConstraintError } from 'sequelize';
import { fieldExists, invalidParameter, missingField, notFound } from '../../lib/errors.ts';
import type { CustomField } from '../../models/CustomField.ts';

export interface FieldDescriptor {
  key: string;
  label: string;
  type: 'string' | 'date' | 'array';
  required: boolean;
  /** How a value is written: `email`, `YYYY-MM-DD`, `uri`, or null for free text. */
  format: string | null;
}

const BUILT_IN: FieldDescriptor[] = [
  { key: 'email', label: 'Email', type: 'string', required: true, format: 'email' },
  { key: 'employee_id', label: 'Employee ID', type: 'string', required: false, format: null },
  { key: 'first_name', label: 'First name', type: 'string', required: false, format: null },
  { key: 'last_name', label: 'Last name', type: 'string', required: false, format: null },
  { key: 'job_position', label: 'Job position', type: 'string', required: false, format: null },
  { key: 'departments', label: 'Departments', type: 'array', required: false, format: 'department names' },
  { key: 'date_of_birth', label: 'Date of birth', type: 'date', required: false, format: 'YYYY-MM-DD' },
  { key: 'hire_date', label: 'Hire date', type: 'date', required: false, format: 'YYYY-MM-DD' },
  { key: 'profile_image_url', label: 'Profile image URL', type: 'string', required: false, format: 'uri' },
  { key: 'manager_email', label: "Manager's email", type: 'string', required: false, format: 'email' },
  { key: 'timezone', label: 'Time zone', type: 'string', required: false, format: 'IANA time zone' },
];

/** Custom keys are lower-case identifiers that no built-in field uses. */
export const CUSTOM_KEY = /^[a-z][a-z0-9_]{0,63}$/;

export async function activeCustomFields(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<CustomField[]> {
  const { models } = ctx;
  return models.CustomField.findAll({ where: { account_id: accountId, active: true }, order: [['field_key', 'ASC']] });
}

/** Every field an upsert can set, custom date fields as `custom_fields.<key>` (where the upsert body takes them). */
export async function settableFields(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<FieldDescriptor[]> {
  const custom = await activeCustomFields(ctx, accountId);
  return [
    ...BUILT_IN,
    ...custom.map((f) => ({ key: `custom_fields.${f.field_key}`, label: f.label, type: 'date' as const, required: f.required, format: 'YYYY-MM-DD' })),
  ];
}

export async function addCustomField(ctx: Pick<ServiceContext, 'models'>, input: { accountId: number; key: string; label: string; required: boolean }): Promise<CustomField> {
  const { models } = ctx;
  if (!CUSTOM_KEY.test(input.key) || BUILT_IN.some((f) => f.key === input.key)) {
    throw invalidParameter(`key must be a lower-case identifier (a-z, 0-9, _) that is not a built-in field; got ${JSON.stringify(input.key)}`);
  }
  const label = input.label.trim();
  if (!label) throw missingField('label is required');
  const existing = await models.CustomField.findOne({ where: { account_id: input.accountId, field_key: input.key } });
  if (existing?.active) throw fieldExists(`Account ${input.accountId} already has a custom field "${input.key}"`);
  try {
    // A deactivated field of the same key comes back with its members' values.
    if (existing) return await existing.update({ label, required: input.required, active: true });
    return await models.CustomField.create({ account_id: input.accountId, field_key: input.key, label, required: input.required });
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw fieldExists(`Account ${input.accountId} already has a custom field "${input.key}"`);
    throw err;
  }
}

/** Hides a field from the directory (values are kept, so adding the key again restores them). */
export async function deactivateCustomField(ctx: Pick<ServiceContext, 'models'>, accountId: number, key: string): Promise<CustomField> {
  const { models } = ctx;
  const field = await models.CustomField.findOne({ where: { account_id: accountId, field_key: key, active: true } });
  if (!field) throw notFound(`Account ${accountId} has no active custom field "${key}"`);
  return field.update({ active: false });
}
