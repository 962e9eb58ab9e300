import { expect } from 'chai';
import type { Models } from '../../models/index.ts';
import { ecardUsage, inUse, widgetUsage, type UsageCheck, type UsageKind } from '../../services/usage.ts';

// Stand-ins for the areas' checks (campaigns and automations do not exist yet): each counts from a fixed table.
function fakeCheck(kind: UsageKind, counts: { widgets?: Record<number, number>; ecards?: Record<number, number> }): UsageCheck {
  const pick = (table: Record<number, number> | undefined, ids: number[]) => new Map(ids.filter((id) => table?.[id]).map((id) => [id, table![id]!]));
  return {
    kind,
    widgets: async (_models, _accountId, ids) => pick(counts.widgets, ids),
    ecards: async (_models, _accountId, ids) => pick(counts.ecards, ids),
  };
}

const models = {} as Models;

describe('usage checks (services/usage.ts)', () => {
  const checks = [
    fakeCheck('sends', { widgets: { 1: 12 }, ecards: { 10: 3 } }),
    fakeCheck('campaigns', { widgets: { 1: 1, 2: 2 }, ecards: { 11: 1 } }),
    fakeCheck('automations', { ecards: { 11: 1 } }),
    // A second check of a kind adds to it.
    fakeCheck('sends', { ecards: { 10: 2 } }),
  ];

  it('adds every registered check per kind, and ids no check names count 0', async () => {
    const widgets = await widgetUsage(checks, models, 7, [1, 2, 3]);
    expect(Object.fromEntries(widgets)).to.deep.equal({
      1: { campaigns: 1, automations: 0, sends: 12 },
      2: { campaigns: 2, automations: 0, sends: 0 },
      3: { campaigns: 0, automations: 0, sends: 0 },
    });
    const ecards = await ecardUsage(checks, models, 7, [10, 11, 12]);
    expect(Object.fromEntries(ecards)).to.deep.equal({
      10: { campaigns: 0, automations: 0, sends: 5 },
      11: { campaigns: 1, automations: 1, sends: 0 },
      12: { campaigns: 0, automations: 0, sends: 0 },
    });
  });

  it('something is in use when any kind counts it; with no checks registered nothing is', async () => {
    const ecards = await ecardUsage(checks, models, 7, [10, 11, 12]);
    expect([10, 11, 12].map((id) => inUse(ecards.get(id)!))).to.deep.equal([true, true, false]);
    const none = await ecardUsage([], models, 7, [10]);
    expect(inUse(none.get(10)!)).to.equal(false);
  });

  it('ignores counts for ids that were not asked about', async () => {
    const widgets = await widgetUsage([fakeCheck('sends', { widgets: { 1: 4, 99: 1 } })], models, 7, [1]);
    expect([...widgets.keys()]).to.deep.equal([1]);
  });
});
