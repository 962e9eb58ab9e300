// An account's settings of local time: the default time zone (for members and recipients without one of their own)
// and the quiet hours (a daily window, local to the recipient, that may cross midnight). A sandbox account has its
// own, as it has its own everything. Campaigns (services/campaigns/waves.ts) and automations
// (services/automations/local-plan.ts) read them.
import type { Transaction } from 'sequelize';
import { invalidValue } from '../lib/errors.ts';
import type { AccountSettings } from '../models/AccountSettings.ts';
import { accountTransaction } from './account-lock.ts';
import type { ServiceContext } from './context.ts';

export interface QuietHours {
  /** "HH:MM", 24-hour. */
  start: string;
  end: string;
}

export interface AccountSettingsView {
  default_timezone: string;
  quiet_hours: QuietHours | null;
}

/** An account without a row has these. */
export const DEFAULT_ACCOUNT_SETTINGS: AccountSettingsView = { default_timezone: 'UTC', quiet_hours: null };

function viewOf(row: AccountSettings | null): AccountSettingsView {
  if (!row) return { ...DEFAULT_ACCOUNT_SETTINGS };
  const quiet = row.quiet_start !== null && row.quiet_end !== null ? { start: row.quiet_start, end: row.quiet_end } : null;
  return { default_timezone: row.default_timezone, quiet_hours: quiet };
}

export async function loadAccountSettings(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction?: Transaction): Promise<AccountSettingsView> {
  const { models } = ctx;
  return viewOf(await models.AccountSettings.findByPk(accountId, transaction ? { transaction } : {}));
}

/** A change: a field left out keeps its value; `quiet_hours: null` removes the quiet hours. Zones arrive canonical. */
export interface AccountSettingsChange {
  default_timezone?: string | undefined;
  quiet_hours?: QuietHours | null | undefined;
}

/** Applies a change under the account's lock (two partial changes at once both land); an empty window is 422. */
export async function updateAccountSettings(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number, change: AccountSettingsChange): Promise<AccountSettingsView> {
  const quiet = change.quiet_hours;
  // A window from a time to the same time holds no minute (or every minute): neither is a setting anyone means.
  if (quiet && quiet.start === quiet.end) {
    throw invalidValue(`quiet_hours: start and end are both ${quiet.start}, an empty window; to have no quiet hours send quiet_hours: null`);
  }
  return accountTransaction(ctx, accountId, async (transaction) => {
    const row = await ctx.models.AccountSettings.findByPk(accountId, { transaction });
    const current = viewOf(row);
    const next: AccountSettingsView = {
      default_timezone: change.default_timezone ?? current.default_timezone,
      quiet_hours: quiet === undefined ? current.quiet_hours : quiet,
    };
    const now = ctx.now();
    const values = { default_timezone: next.default_timezone, quiet_start: next.quiet_hours?.start ?? null, quiet_end: next.quiet_hours?.end ?? null, updated_at: now };
    if (row) await row.update(values, { transaction, silent: true });
    else await ctx.models.AccountSettings.create({ account_id: accountId, ...values, created_at: now }, { transaction, silent: true });
    return next;
  });
}
