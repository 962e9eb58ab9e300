// The spend rules of `GET /gift-card/getRules` with the current use of each period (UTC day, week from Monday,
// month, by the service's clock): what the counter holds, whether or not the limits are enforced.
import type { SpendPeriod } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';
import { dayOf, resetsAt } from './periods.ts';
import { loadRules, loadSettings } from './settings.ts';
import { spendUsed } from './spend.ts';

export interface RuleUse {
  period: SpendPeriod;
  limit_cents: number;
  used_cents: number;
  remaining_cents: number;
  /** When the period's use starts again from 0. */
  resets_at: Date;
}

export interface RulesView {
  /** velocity_limits_enabled: false records use and refuses nothing. */
  enforced: boolean;
  currency: string;
  rules: RuleUse[];
}

const ORDER: readonly SpendPeriod[] = ['day', 'week', 'month'];

export async function rulesView(ctx: Pick<ServiceContext, 'models' | 'config' | 'now'>, accountId: number): Promise<RulesView> {
  const now = ctx.now();
  const [settings, rules, used] = await Promise.all([loadSettings(ctx, accountId), loadRules(ctx, accountId), spendUsed(ctx, accountId, dayOf(now))]);
  return {
    enforced: settings.velocity_limits_enabled,
    currency: settings.currency,
    rules: [...rules]
      .sort((a, b) => ORDER.indexOf(a.period) - ORDER.indexOf(b.period))
      .map((r) => ({
        period: r.period,
        limit_cents: r.limit_cents,
        used_cents: used[r.period],
        remaining_cents: Math.max(0, r.limit_cents - used[r.period]),
        resets_at: resetsAt(r.period, now),
      })),
  };
}
