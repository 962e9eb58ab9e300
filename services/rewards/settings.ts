// An account's reward settings and spend rules. A new account has no row: the defaults are its settings (manual
// codes, USD, 1.00–500.00 per card, limits enforced with no rules yet, claim links valid 365 days). Only the
// console and `cardsvc rewards` change them (the spec gives keys no write endpoint).
import type { Transaction } from 'sequelize';
import { invalidValue } from '../../lib/errors.ts';
import type { GiftRule, ProviderMode, SpendPeriod } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';

export interface GiftSettingsView {
  provider_mode: ProviderMode;
  /** The provider in use in provider mode (null in manual mode, or when none is configured for a live account). */
  provider: string | null;
  currency: string;
  min_cents: number;
  max_cents: number;
  velocity_limits_enabled: boolean;
  claim_expiry_days: number;
  sandbox: boolean;
}

export const DEFAULT_SETTINGS = {
  provider_mode: 'manual' as ProviderMode,
  currency: 'USD',
  min_cents: 100,
  max_cents: 50_000,
  velocity_limits_enabled: true,
  claim_expiry_days: 365,
};

/** The provider an account's provider mode uses: the sandbox always the simulated one, a live account REWARDS_PROVIDER. */
export const providerFor = (ctx: Pick<ServiceContext, 'config'>, sandbox: boolean): string | null => (sandbox ? 'simulated' : (ctx.config.rewards.provider ?? null));

export async function loadSettings(ctx: Pick<ServiceContext, 'config' | 'models'>, accountId: number, transaction?: Transaction): Promise<GiftSettingsView> {
  const [row, account] = await Promise.all([
    ctx.models.GiftSettings.findByPk(accountId, transaction ? { transaction } : {}),
    ctx.models.Account.findByPk(accountId, { attributes: ['mode'], ...(transaction ? { transaction } : {}) }),
  ]);
  const sandbox = account?.mode === 'sandbox';
  const s = row ? row.get({ plain: true }) : DEFAULT_SETTINGS;
  return {
    provider_mode: s.provider_mode,
    provider: s.provider_mode === 'provider' ? providerFor(ctx, sandbox) : null,
    currency: s.currency,
    min_cents: s.min_cents,
    max_cents: s.max_cents,
    velocity_limits_enabled: Boolean(s.velocity_limits_enabled),
    claim_expiry_days: s.claim_expiry_days,
    sandbox,
  };
}

export interface SettingsChange {
  provider_mode?: ProviderMode;
  min_cents?: number;
  max_cents?: number;
  velocity_limits_enabled?: boolean;
  claim_expiry_days?: number;
}

/** Applies a change (the console's form, `cardsvc rewards settings`); bounds must stay min ≤ max. */
export async function updateSettings(ctx: Pick<ServiceContext, 'config' | 'models'>, accountId: number, change: SettingsChange): Promise<GiftSettingsView> {
  const current = await loadSettings(ctx, accountId);
  const next = { ...current, ...change };
  if (next.min_cents < 1 || next.max_cents < next.min_cents) {
    throw invalidValue(`The bounds must satisfy 0.01 ≤ min ≤ max (got min ${next.min_cents / 100}, max ${next.max_cents / 100})`);
  }
  if (!Number.isInteger(next.claim_expiry_days) || next.claim_expiry_days < 1 || next.claim_expiry_days > 3650) {
    throw invalidValue(`claim_expiry_days must be a whole number of days from 1 to 3650 (got ${next.claim_expiry_days})`);
  }
  await ctx.models.GiftSettings.upsert({
    account_id: accountId,
    provider_mode: next.provider_mode,
    currency: next.currency,
    min_cents: next.min_cents,
    max_cents: next.max_cents,
    velocity_limits_enabled: next.velocity_limits_enabled,
    claim_expiry_days: next.claim_expiry_days,
  });
  return loadSettings(ctx, accountId);
}

export async function loadRules(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction?: Transaction): Promise<GiftRule[]> {
  const { models } = ctx;
  return models.GiftRule.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']], ...(transaction ? { transaction } : {}) });
}

/** Sets the period's limit; 0 removes the rule. */
/** True when the change raises or removes an existing limit (the console asks for the password again); adding or lowering one does not. */
export async function ruleChangeLoosens(ctx: Pick<ServiceContext, 'models'>, accountId: number, period: SpendPeriod, limitCents: number): Promise<boolean> {
  const { models } = ctx;
  const current = await models.GiftRule.findOne({ where: { account_id: accountId, period } });
  return current !== null && (limitCents === 0 || limitCents > current.limit_cents);
}

export async function setRule(ctx: Pick<ServiceContext, 'models'>, accountId: number, period: SpendPeriod, limitCents: number): Promise<void> {
  const { models } = ctx;
  if (!Number.isInteger(limitCents) || limitCents < 0) throw invalidValue(`The limit must be 0 (remove) or a positive amount (got ${limitCents / 100})`);
  if (limitCents === 0) {
    await models.GiftRule.destroy({ where: { account_id: accountId, period } });
    return;
  }
  // The conflict is on (account_id, period), not the id: SQLite's ON CONFLICT must name it (MySQL matches any unique key).
  await models.GiftRule.upsert({ account_id: accountId, period, limit_cents: limitCents }, { conflictFields: ['account_id', 'period'] });
}
