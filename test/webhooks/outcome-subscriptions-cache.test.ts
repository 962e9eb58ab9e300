// The check before an outcome transition (mark the rows? lock the account?) reads an account's outcome subscriptions
// through a per-process cache of OUTCOME_SUBSCRIPTIONS_CACHE_MS: a bulk batch's micro-batches read them once in that
// time, and a new subscription is taken once it has passed. The check inside the writing transaction always reads.
import { expect } from 'chai';
import type { FindOptions } from 'sequelize';
import { subscribedTypes } from '../../services/sends/delivery/outcome-events.ts';
import { newAccount } from '../helpers/api.ts';
import { testConfig, testModels, testServices } from '../helpers/stack.ts';

describe('outcome subscriptions: the pre-check reads them once per OUTCOME_SUBSCRIPTIONS_CACHE_MS', function () {
  this.timeout(60_000);
  const TYPES = ['ecard_delivered', 'ecard_failed'] as const;
  let clock = Date.now();
  const reads = new Map<number, number>();

  before(async () => {
    const models = await testModels();
    // Counts the subscription reads per account: the observable cost the cache saves.
    models.WebhookEndpoint.addHook('afterFind', 'countSubscriptionReads', (_rows: unknown, options: FindOptions) => {
      const account = (options.where as { account_id?: number } | undefined)?.account_id;
      if (typeof account === 'number') reads.set(account, (reads.get(account) ?? 0) + 1);
    });
  });
  after(async () => (await testModels()).WebhookEndpoint.removeHook('afterFind', 'countSubscriptionReads'));

  const subscribe = async (accountId: number, eventType: string) =>
    (await testModels()).WebhookEndpoint.create({ account_id: accountId, kind: 'member_change', event_type: eventType, url: 'https://hooks.example/outcomes', integration: false });

  it('answers every micro-batch within the TTL from one read; a subscription made meanwhile is taken once the TTL has passed', async () => {
    const services = await testServices(await testConfig({ OUTCOME_SUBSCRIPTIONS_CACHE_MS: '3000' }), { now: () => new Date(clock) });
    const { accountId } = await newAccount(services.models);
    for (let batch = 0; batch < 10; batch++) expect([...(await subscribedTypes(services, accountId, TYPES))]).to.deep.equal([]);
    expect(reads.get(accountId)).to.equal(1);

    await subscribe(accountId, 'ecard_delivered');
    clock += 2999;
    expect([...(await subscribedTypes(services, accountId, TYPES))], 'within the TTL: the earlier read').to.deep.equal([]);
    clock += 2;
    expect([...(await subscribedTypes(services, accountId, TYPES))], 'past the TTL: read again').to.deep.equal(['ecard_delivered']);
    expect([...(await subscribedTypes(services, accountId, ['ecard_failed']))]).to.deep.equal([]);
    expect(reads.get(accountId)).to.equal(2);

    // The check that decides what is written reads in its transaction, every time.
    await services.models.sequelize.transaction(async (transaction) => {
      expect([...(await subscribedTypes(services, accountId, TYPES, transaction))]).to.deep.equal(['ecard_delivered']);
      expect([...(await subscribedTypes(services, accountId, TYPES, transaction))]).to.deep.equal(['ecard_delivered']);
    });
    expect(reads.get(accountId)).to.equal(4);
  });

  it('keeps each account apart, and with 0 reads at every call', async () => {
    const cached = await testServices(await testConfig({ OUTCOME_SUBSCRIPTIONS_CACHE_MS: '3000' }), { now: () => new Date(clock) });
    const [a, b] = [await newAccount(cached.models), await newAccount(cached.models)];
    await subscribe(b.accountId, 'ecard_failed');
    expect([...(await subscribedTypes(cached, a.accountId, TYPES))]).to.deep.equal([]);
    expect([...(await subscribedTypes(cached, b.accountId, TYPES))]).to.deep.equal(['ecard_failed']);
    expect([reads.get(a.accountId), reads.get(b.accountId)]).to.deep.equal([1, 1]);

    const uncached = await testServices(await testConfig({ OUTCOME_SUBSCRIPTIONS_CACHE_MS: '0' }), { now: () => new Date(clock) });
    const c = await newAccount(uncached.models);
    for (let batch = 0; batch < 3; batch++) await subscribedTypes(uncached, c.accountId, TYPES);
    expect(reads.get(c.accountId)).to.equal(3);
  });
});
