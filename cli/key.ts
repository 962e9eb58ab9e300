// `cardsvc key create | revoke | rotate | list`: API keys from an operator's shell, beside the console's keys page.
import { parseArgs } from 'node:util';
import { AREAS, levelsOf, type Area, type Level } from '../models/ApiKey.ts';
import { createApiKey, listKeys, resolveAccount, revokeKey, rotateKey } from '../services/api-keys.ts';
import type { CommandContext } from './context.ts';
import { positiveId, UsageError } from './output.ts';

/** `ecards=manage,widgets=view` → levels; every area named must exist and appear once. */
export function parsePermissions(text: string): Partial<Record<Area, Level>> {
  const levels: Partial<Record<Area, Level>> = {};
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [area = '', level = ''] = entry.split('=');
    if (!(AREAS as readonly string[]).includes(area)) throw new UsageError(`unknown area "${area}" (areas: ${AREAS.join(', ')})`);
    const allowed = levelsOf(area as Area) as readonly string[];
    if (!allowed.includes(level)) throw new UsageError(`unknown level "${level}" for ${area} (levels: ${allowed.join(', ')})`);
    if (levels[area as Area]) throw new UsageError(`${area} is given twice`);
    levels[area as Area] = level as Level;
  }
  return levels;
}

async function create(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      'full-access': { type: 'boolean', default: false },
      permissions: { type: 'string' },
      name: { type: 'string', default: '' },
      json: { type: 'boolean', default: false },
    },
  });
  const accountId = positiveId(values.account, '--account');
  if (values['full-access'] === (values.permissions !== undefined)) throw new UsageError('give either --full-access or --permissions');
  const levels = values.permissions === undefined ? {} : parsePermissions(values.permissions);
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  const created = await createApiKey(services, {
    accountId: account.id,
    mode: values.sandbox ? 'test' : 'live',
    name: values.name,
    fullAccess: values['full-access'],
    levels,
  });
  ctx.out.message(`Created key ${created.keyId} on ${account.mode} account ${account.id}; the key is shown only now.`);
  ctx.out.result({ ...created });
}

async function revoke(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: { 'key-id': { type: 'string' }, json: { type: 'boolean', default: false } } });
  const keyId = positiveId(values['key-id'], '--key-id');
  await revokeKey((await ctx.services()), keyId, new Date());
  ctx.out.message(`Revoked key ${keyId}.`);
  ctx.out.result({ ok: true });
}

async function rotate(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({
    args,
    options: { 'key-id': { type: 'string' }, 'grace-seconds': { type: 'string', default: '0' }, json: { type: 'boolean', default: false } },
  });
  const keyId = positiveId(values['key-id'], '--key-id');
  const grace = Number(values['grace-seconds']);
  if (!Number.isInteger(grace) || grace < 0) throw new UsageError('--grace-seconds must be a whole number of seconds, 0 or more');
  const created = await rotateKey((await ctx.services()), keyId, grace, new Date());
  ctx.out.message(`Key ${keyId} is replaced by key ${created.keyId}; the old key stops working in ${grace} s.`);
  ctx.out.result({ ...created });
}

async function list(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: { account: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const keys = await listKeys((await ctx.services()), positiveId(values.account, '--account'), new Date());
  ctx.out.result(
    { keys },
    keys.map((k) => `${k.id}\t${k.mode}\t…${k.last4}\t${k.full_access ? 'full access' : 'scoped'}\t${k.revoked ? 'revoked' : 'active'}\t${k.name}`).join('\n'),
  );
}

export const keyCommands = { 'key create': create, 'key revoke': revoke, 'key rotate': rotate, 'key list': list };
