// The console home's figures, read cheaply (a count per table, one quota row): how many widgets, eCards and brands
// the account has, this billing month's emails against the plan's allowance, and the seats its active directory
// members take of the plan's.
import type { Account } from '../../models/Account.ts';
import type { ServiceContext } from '../context.ts';
import { billingMonth } from '../sends/accept/quota.ts';

export interface ConsoleOverview {
  widgets: number;
  ecards: number;
  brands: number;
  /** This UTC month's emails; the sandbox sends count against no allowance, so it has none. */
  emails: { month: string; used: number; limit: number } | null;
  /** Active directory members (deactivated ones take no seat) and the plan's seats. */
  seats: { used: number; limit: number };
}

export async function consoleOverview(ctx: Pick<ServiceContext, 'models' | 'config' | 'now'>, account: Account): Promise<ConsoleOverview> {
  const { models } = ctx;
  const where = { account_id: account.id };
  const month = billingMonth(ctx.now());
  const [widgets, ecards, brands, members, quota] = await Promise.all([
    models.Widget.count({ where }),
    models.Ecard.count({ where }),
    models.Brand.count({ where }),
    models.TeamMember.count({ where: { ...where, disabled: false } }),
    account.mode === 'sandbox' ? null : models.QuotaUsage.findOne({ where: { account_id: account.id, month } }),
  ]);
  const emails = account.mode === 'sandbox' ? null : { month, used: quota?.used ?? 0, limit: ctx.config.emailsPerMonth[account.plan] };
  return { widgets, ecards, brands, emails, seats: { used: members, limit: ctx.config.seats[account.plan] } };
}
