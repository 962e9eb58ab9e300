import { expect } from 'chai';
import type { Client } from '@temporalio/client';
import type { Services } from '../../app/services.ts';
import type { DataKeys } from '../../lib/data-key.ts';
import { expireGiftOrders } from '../../services/rewards/expiry.ts';
import { GIFT_EXPIRY_SCHEDULE_ID } from '../../workflows/gift-expiry/contract.ts';
import { ensureGiftExpirySchedule } from '../../workflows/gift-expiry/lifecycle.ts';
import type { GiftExpiryResult } from '../../workflows/gift-expiry/contract.ts';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testConfig, testServices, testStack, type TestStack } from '../helpers/stack.ts';
import { seedGift, type SeedOptions } from './claim-seed.ts';

const HOUR = 3_600_000;

describe('rewards: the daily expiry of unclaimed gifts', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let keys: DataKeys;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    keys = stack.services.dataKeys!;
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });
  const seed = (options: Omit<SeedOptions, 'code'>) =>
    seedGift(stack.models, keys, account.accountId, { code: `EXP-${Date.now()}-${Math.random().toString(36).slice(2)}`, ...options });
  const statusOf = async (id: number) => (await stack.models.GiftOrder.findByPk(id))!.claim_status;

  describe('expireGiftOrders', () => {
    let clocked: Services;
    // Two hours ahead of the real clock: only orders due by then move (none of other tests' live orders).
    const at = new Date(Date.now() + 2 * HOUR);
    before(async () => {
      clocked = await testServices(await testConfig(), { now: () => at });
    });

    it('moves only fulfilled, unclaimed orders whose expires_at has come, once', async () => {
      const dueNow = await seed({ order: { expires_at: at } });
      const dueEarlier = await seed({ order: { expires_at: new Date(at.getTime() - HOUR) } });
      const notYet = await seed({ order: { expires_at: new Date(at.getTime() + 1000) } });
      const claimed = await seed({ order: { expires_at: new Date(at.getTime() - HOUR), claim_status: 'claimed' } });
      const failed = await seed({ order: { expires_at: new Date(at.getTime() - HOUR), payment_status: 'failed', fulfillment_status: 'failed' } });
      const canceled = await seed({ order: { expires_at: new Date(at.getTime() - HOUR), payment_status: 'refunded', fulfillment_status: 'canceled' } });

      expect(await expireGiftOrders(clocked)).to.be.at.least(2);
      expect(await statusOf(dueNow.order.id)).to.equal('expired');
      expect(await statusOf(dueEarlier.order.id)).to.equal('expired');
      expect(await statusOf(notYet.order.id)).to.equal('unclaimed');
      expect(await statusOf(claimed.order.id)).to.equal('claimed');
      expect(await statusOf(failed.order.id)).to.equal('unclaimed');
      expect(await statusOf(canceled.order.id)).to.equal('unclaimed');
      // A run a second later moves the order due then, and nothing else of these.
      const later = await testServices(await testConfig(), { now: () => new Date(at.getTime() + 1000) });
      expect(await expireGiftOrders(later)).to.be.at.least(1);
      expect(await statusOf(notYet.order.id)).to.equal('expired');
      expect(await statusOf(claimed.order.id)).to.equal('claimed');
      expect(await statusOf(failed.order.id)).to.equal('unclaimed');
    });

    it('works through batches', async () => {
      const due = await Promise.all([1, 2, 3, 4, 5].map((n) => seed({ order: { expires_at: new Date(at.getTime() - n * 1000) } })));
      expect(await expireGiftOrders(clocked, { batchSize: 2 })).to.be.at.least(5);
      for (const gift of due) expect(await statusOf(gift.order.id)).to.equal('expired');
    });
  });

  describe('the gift-expiry Schedule', () => {
    let client: Client;
    before(() => {
      client = stack.services.workflows!.client;
    });

    it('exists once the worker started: every day at 00:10 UTC, overlap SKIP, the expiry workflow', async () => {
      const handle = client.schedule.getHandle(GIFT_EXPIRY_SCHEDULE_ID);
      const described = await eventually(
        () => handle.describe().catch(() => null),
        (d) => d !== null,
        15_000,
        200,
      );
      expect(described, 'the gift-expiry Schedule').not.to.equal(null);
      const calendar = described!.spec.calendars![0]!;
      expect(described!.spec.calendars).to.have.length(1);
      expect(calendar.hour).to.deep.equal([{ start: 0, end: 0, step: 1 }]);
      expect(calendar.minute).to.deep.equal([{ start: 10, end: 10, step: 1 }]);
      expect(described!.spec.timezone ?? 'UTC').to.equal('UTC');
      expect(described!.policies.overlap).to.equal('SKIP');
      expect(described!.action.workflowType).to.equal('giftExpiryWorkflow');
    });

    it('ensuring it again is a success; one on another task queue is brought back to the service\'s', async () => {
      const target = stack.services.workflows!;
      expect(await ensureGiftExpirySchedule(target)).to.be.oneOf(['exists', 'updated']);
      expect(await ensureGiftExpirySchedule(target)).to.equal('exists');
      expect(await ensureGiftExpirySchedule({ client, taskQueue: `elsewhere-${process.pid}` })).to.equal('updated');
      expect((await client.schedule.getHandle(GIFT_EXPIRY_SCHEDULE_ID).describe()).action.taskQueue).to.equal(`elsewhere-${process.pid}`);
      expect(await ensureGiftExpirySchedule(target)).to.equal('updated');
      const described = await client.schedule.getHandle(GIFT_EXPIRY_SCHEDULE_ID).describe();
      expect(described.action.taskQueue).to.equal(stack.taskQueue);
    });

    it('triggered, it runs the expiry workflow on the worker, which expires due orders', async () => {
      await ensureGiftExpirySchedule(stack.services.workflows!);
      const handle = client.schedule.getHandle(GIFT_EXPIRY_SCHEDULE_ID);
      const due = await seed({ order: { expires_at: new Date(Date.now() - 1000) } });
      const before = new Set((await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId));
      await handle.trigger();
      const started = await eventually(
        async () => (await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId).filter((id) => !before.has(id)),
        (ids) => ids.length > 0,
        30_000,
        250,
      );
      expect(started).to.have.length(1);
      const result = (await client.workflow.getHandle(started[0]!).result()) as GiftExpiryResult;
      expect(result.expired).to.be.at.least(1);
      expect(await statusOf(due.order.id)).to.equal('expired');
      // Its history holds a count, never an order's data.
      const history = JSON.stringify(await client.workflow.getHandle(started[0]!).fetchHistory());
      expect(history).not.to.include('Gifted Person');
    });
  });
});
