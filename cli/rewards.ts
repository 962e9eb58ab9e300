// `cardsvc rewards settings | set-rule | add-codes`: an account's reward settings, spend rules and manual code
// inventory. The key API has no endpoint that writes them (decisions, Rewards): operators use these commands or the console.
import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { oneLine } from '../lib/main.ts';
import { presentSettings } from '../api/gift-cards/present.ts';
import { SPEND_PERIODS, type SpendPeriod } from '../models/Gift.ts';
import { resolveAccount } from '../services/api-keys.ts';
import { addCodes } from '../services/rewards/codes.ts';
import { fromCents, toCents } from '../services/rewards/money.ts';
import { loadRules, loadSettings, setRule, updateSettings, type SettingsChange } from '../services/rewards/settings.ts';
import type { CommandContext } from './context.ts';
import { positiveId, UsageError } from './output.ts';

const accountOptions = {
  account: { type: 'string' },
  sandbox: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

/** parseArgs, with an unknown flag or a stray word reported as a usage error like the other mistakes. */
function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (err) {
    throw new UsageError(oneLine(err));
  }
}

/** An amount in the account's currency units, at most 2 decimals (`25`, `10.50`), as cents. */
function amountFlag(value: string | undefined, flag: string): number {
  if (value === undefined || !/^\d{1,7}(\.\d{1,2})?$/.test(value)) throw new UsageError(`${flag} must be an amount in currency units with at most 2 decimals, like 25 or 10.50`);
  return toCents(Number(value));
}

function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value ?? '')) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}`);
  return value as T;
}

async function settings(args: string[], ctx: CommandContext) {
  const { values } = parse(args, {
    ...accountOptions,
    mode: { type: 'string' },
    min: { type: 'string' },
    max: { type: 'string' },
    velocity: { type: 'string' },
    'expiry-days': { type: 'string' },
  });
  const accountId = positiveId(values.account, '--account');
  const change: SettingsChange = {};
  if (values.mode !== undefined) change.provider_mode = oneOf(values.mode, '--mode', ['manual', 'provider'] as const);
  if (values.min !== undefined) change.min_cents = amountFlag(values.min, '--min');
  if (values.max !== undefined) change.max_cents = amountFlag(values.max, '--max');
  if (values.velocity !== undefined) change.velocity_limits_enabled = oneOf(values.velocity, '--velocity', ['on', 'off'] as const) === 'on';
  if (values['expiry-days'] !== undefined) {
    if (!/^\d{1,6}$/.test(values['expiry-days'])) throw new UsageError('--expiry-days must be a whole number of days');
    change.claim_expiry_days = Number(values['expiry-days']);
  }
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  const changed = Object.keys(change).length > 0;
  const view = changed ? await updateSettings(services, account.id, change) : await loadSettings(services, account.id);
  if (changed) ctx.out.message(`Updated the reward settings of ${account.mode} account ${account.id}.`);
  if (view.provider_mode === 'provider' && view.provider === null) {
    ctx.out.message('Note: provider mode, but no provider is configured for live accounts (REWARDS_PROVIDER): the catalog is empty.');
  }
  // Exactly what GET /gift-card/getSettings answers.
  ctx.out.result(presentSettings(view));
}

async function rules(ctx: CommandContext, accountId: number) {
  const services = await ctx.services();
  const order = (p: SpendPeriod) => SPEND_PERIODS.indexOf(p);
  return (await loadRules(services, accountId)).sort((a, b) => order(a.period) - order(b.period)).map((r) => ({ period: r.period, limit: fromCents(r.limit_cents) }));
}

async function setRuleCommand(args: string[], ctx: CommandContext) {
  const { values } = parse(args, { ...accountOptions, period: { type: 'string' }, limit: { type: 'string' } });
  const accountId = positiveId(values.account, '--account');
  const period = oneOf(values.period, '--period', SPEND_PERIODS);
  const cents = amountFlag(values.limit, '--limit');
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  await setRule(services, account.id, period, cents);
  const { currency } = await loadSettings(services, account.id);
  ctx.out.message(
    cents === 0
      ? `Removed the ${period} spend rule of ${account.mode} account ${account.id}.`
      : `Account ${account.id} (${account.mode}) may now spend at most ${fromCents(cents)} ${currency} a ${period} on gifts.`,
  );
  const list = await rules(ctx, account.id);
  ctx.out.result({ rules: list }, list.map((r) => `${r.period}\t${r.limit} ${currency}`).join('\n') || '(no spend rules)');
}

async function addCodesCommand(args: string[], ctx: CommandContext) {
  const { values } = parse(args, { ...accountOptions, brand: { type: 'string' }, denomination: { type: 'string' }, file: { type: 'string' } });
  const accountId = positiveId(values.account, '--account');
  if (values.brand === undefined) throw new UsageError('--brand is required');
  const cents = amountFlag(values.denomination, '--denomination');
  if (!values.file) throw new UsageError('--file is required (one code[,pin][,expiry] a line)');
  let text: string;
  try {
    text = await readFile(values.file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --file ${values.file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  const result = await addCodes(services, account.id, { brand: values.brand, denominationCents: cents, text });
  const invalid = result.invalid_lines.length ? `; invalid lines: ${result.invalid_lines.join(', ')}` : '';
  ctx.out.message(`Added ${result.added} code(s) to ${values.brand.trim()} ${fromCents(cents)} on ${account.mode} account ${account.id} (${result.duplicates} duplicate(s) skipped${invalid}).`);
  ctx.out.result({ ...result }, `added: ${result.added}\nduplicates: ${result.duplicates}\ninvalid_lines: ${result.invalid_lines.join(',')}`);
}

export const rewardsCommands = {
  'rewards settings': settings,
  'rewards set-rule': setRuleCommand,
  'rewards add-codes': addCodesCommand,
};
