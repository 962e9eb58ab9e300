// `cardsvc field add | list | remove`: an account's custom date fields for members, from an operator's shell (the console's settings do the same).
import { parseArgs } from 'node:util';
import type { CustomField } from '../models/CustomField.ts';
import { resolveAccount } from '../services/api-keys.ts';
import { activeCustomFields, addCustomField, deactivateCustomField } from '../services/directory/custom-fields.ts';
import type { CommandContext } from './context.ts';
import { positiveId, UsageError } from './output.ts';

const shown = (f: CustomField) => ({ id: f.id, key: f.field_key, label: f.label, type: f.field_type, required: f.required, active: f.active });

const accountOptions = {
  account: { type: 'string' },
  sandbox: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

async function add(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: { ...accountOptions, key: { type: 'string' }, label: { type: 'string' }, required: { type: 'boolean', default: false } } });
  const accountId = positiveId(values.account, '--account');
  if (!values.key) throw new UsageError('--key is required');
  if (!values.label?.trim()) throw new UsageError('--label is required');
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  const field = await addCustomField(services, { accountId: account.id, key: values.key, label: values.label, required: values.required });
  ctx.out.message(`Added the custom date field "${field.field_key}" to account ${account.id}; upserts set it as custom_fields.${field.field_key}.`);
  ctx.out.result(shown(field));
}

async function list(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: accountOptions });
  const services = await ctx.services();
  const account = await resolveAccount(services, positiveId(values.account, '--account'), values.sandbox);
  const fields = (await activeCustomFields(services, account.id)).map(shown);
  ctx.out.result({ fields }, fields.map((f) => `${f.key}\t${f.label}${f.required ? '\trequired' : ''}`).join('\n') || '(no custom fields)');
}

async function remove(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: { ...accountOptions, key: { type: 'string' } } });
  const accountId = positiveId(values.account, '--account');
  if (!values.key) throw new UsageError('--key is required');
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  const field = await deactivateCustomField(services, account.id, values.key);
  ctx.out.message(`Removed "${field.field_key}" from account ${account.id}'s directory; members' values are kept and come back if the key is added again.`);
  ctx.out.result(shown(field));
}

export const fieldCommands = { 'field add': add, 'field list': list, 'field remove': remove };
