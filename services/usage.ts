// "In use" (decisions.md): an eCard is in use when a send used it or a campaign or automation refers to it; a
// widget when any of its eCards is, or a campaign or automation refers to it. Each area that can use them
// (sends, campaigns, automations) registers its check in its hooks (services/hooks.ts); deleting something in use
// needs a token.
import type { Models } from '../models/index.ts';

export const USAGE_KINDS = ['campaigns', 'automations', 'sends'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

export interface UsageCheck {
  kind: UsageKind;
  /** How many of this kind use each widget (directly or through its eCards); ids absent count 0. */
  widgets(models: Models, accountId: number, widgetIds: number[]): Promise<Map<number, number>>;
  /** How many of this kind use each eCard. */
  ecards(models: Models, accountId: number, ecardIds: number[]): Promise<Map<number, number>>;
}

export type Usage = Record<UsageKind, number>;

export interface WidgetImpact extends Usage {
  id: number;
  ecards: number;
}

export const inUse = (usage: Usage) => USAGE_KINDS.some((kind) => usage[kind] > 0);

async function usageOf(
  checks: readonly UsageCheck[],
  count: (check: UsageCheck) => Promise<Map<number, number>>,
  ids: number[],
): Promise<Map<number, Usage>> {
  const result = new Map(ids.map((id) => [id, { campaigns: 0, automations: 0, sends: 0 }]));
  for (const check of checks) {
    for (const [id, n] of await count(check)) {
      const usage = result.get(id);
      if (usage) usage[check.kind] += n;
    }
  }
  return result;
}

export function widgetUsage(checks: readonly UsageCheck[], models: Models, accountId: number, widgetIds: number[]) {
  return usageOf(checks, (c) => c.widgets(models, accountId, widgetIds), widgetIds);
}

export function ecardUsage(checks: readonly UsageCheck[], models: Models, accountId: number, ecardIds: number[]) {
  return usageOf(checks, (c) => c.ecards(models, accountId, ecardIds), ecardIds);
}
