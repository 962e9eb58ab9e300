// `cardsvc suppression add|remove` and `cardsvc account suspend-sends|resume-sends`: an account's anti-spam
// rules from an operator's shell (the console's settings manage suppressions too; suspending sends is here only).
import { parseArgs } from 'node:util';
import { resolveAccount } from '../services/api-keys.ts';
import { addSuppression, removeSuppression, setSuspended, validSuppressionValue, type SuppressionKind } from '../services/sends/accept/rules.ts';
import type { CommandContext } from './context.ts';
import { positiveId, UsageError } from './output.ts';

const accountOptions = {
  account: { type: 'string' },
  sandbox: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

async function suppression(args: string[], ctx: CommandContext, add: boolean) {
  const { values } = parseArgs({ args, options: { ...accountOptions, email: { type: 'string' }, domain: { type: 'string' } } });
  const accountId = positiveId(values.account, '--account');
  if ((values.email === undefined) === (values.domain === undefined)) throw new UsageError('give exactly one of --email or --domain');
  const kind: SuppressionKind = values.email !== undefined ? 'email' : 'domain';
  const value = validSuppressionValue(kind, (values.email ?? values.domain)!);
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  const changed = add ? await addSuppression(services, account.id, kind, value) : await removeSuppression(services, account.id, kind, value);
  ctx.out.message(`${kind} ${value} ${add ? (changed ? 'is now blocked' : 'was already blocked') : changed ? 'is no longer blocked' : 'was not blocked'} for account ${account.id}.`);
  ctx.out.result({ account: account.id, kind, value, blocked: add, changed });
}

async function suspension(args: string[], ctx: CommandContext, suspended: boolean) {
  const { values } = parseArgs({ args, options: accountOptions });
  const services = await ctx.services();
  const account = await resolveAccount(services, positiveId(values.account, '--account'), values.sandbox);
  await setSuspended(services, account.id, suspended);
  ctx.out.message(suspended ? `Sending is suspended for account ${account.id}: every send is refused (spammer).` : `Sending is allowed again for account ${account.id}.`);
  ctx.out.result({ account: account.id, sends_suspended: suspended });
}

export const sendingCommands = {
  'suppression add': (args: string[], ctx: CommandContext) => suppression(args, ctx, true),
  'suppression remove': (args: string[], ctx: CommandContext) => suppression(args, ctx, false),
  'account suspend-sends': (args: string[], ctx: CommandContext) => suspension(args, ctx, true),
  'account resume-sends': (args: string[], ctx: CommandContext) => suspension(args, ctx, false),
};
