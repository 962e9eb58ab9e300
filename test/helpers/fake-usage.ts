// A test-only "in use" check standing in for sends, campaigns and automations until those areas exist:
// tests mark a widget or an eCard as used, and the API's usage rules see it.
import type { UsageCheck, UsageKind } from '../../services/usage.ts';

const marks = { widgets: new Map<number, Partial<Record<UsageKind, number>>>(), ecards: new Map<number, Partial<Record<UsageKind, number>>>() };

export function markUsed(target: 'widgets' | 'ecards', id: number, usage: Partial<Record<UsageKind, number>>): void {
  marks[target].set(id, usage);
}

export const fakeUsageChecks: UsageCheck[] = (['campaigns', 'automations', 'sends'] as const).map((kind) => ({
  kind,
  widgets: async (_models, _accountId, ids) => new Map(ids.map((id) => [id, marks.widgets.get(id)?.[kind] ?? 0])),
  ecards: async (_models, _accountId, ids) => new Map(ids.map((id) => [id, marks.ecards.get(id)?.[kind] ?? 0])),
}));
