import { expect } from 'chai';
import { expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { consoleClient, type ConsoleClient, OWNER_PASSWORD, signedInConsole } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { extraApp } from '../helpers/stack.ts';
import { hookPath, insertDelivery, webhookApi, webhookContext, type DeliveryDetailView, type DeliveryView } from '../helpers/webhooks.ts';
import { accountSecret } from '../../services/webhooks/secrets.ts';

interface EndpointView {
  id: number;
  kind: string;
  event_type: string | null;
  url: string;
  state: string;
  consecutive_failures: number;
}

describe('console: webhooks', function () {
  this.timeout(60_000);
  const ctx = webhookContext();
  const endpointsOf = (accountId: number) => ctx.stack.models.WebhookEndpoint.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']], raw: true });

  it('gets and sets the ecard_shared URL ("" disables it); bad input writes nothing; a POST needs the CSRF token', async () => {
    const client = (await signedInConsole(ctx.stack, { account: ctx.account })).client;
    expect(expectSuccess(await client.call('GET', '/ecard-shared-url'))).to.deep.equal({ endpoint: null });
    const url = `${ctx.receiver.url}${hookPath('console-shared')}`;
    const set = expectSuccess(await client.call('POST', '/ecard-shared-url', { body: { url } })) as { endpoint: EndpointView };
    expect(set.endpoint).to.include({ kind: 'ecard_shared', url, state: 'active', event_type: null });
    expect(expectSuccess(await client.call('GET', '/ecard-shared-url'))).to.deep.equal(set);
    // The key API sees the same endpoint.
    expect(expectSuccess(await ctx.hooks.api('GET', '/webhook/endpoints'))).to.deep.equal([set.endpoint]);

    const before = await endpointsOf(ctx.account.accountId);
    expectFailure(await client.call('POST', '/ecard-shared-url', { body: { url: 'ftp://example.com/x' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/ecard-shared-url', { body: {} }), 422, 'missing_field');
    expectFailure(await client.call('POST', '/ecard-shared-url', { body: { url: 5 } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/ecard-shared-url', { body: { url: '' }, csrf: null }), 403, 'csrf_invalid');
    expect(await endpointsOf(ctx.account.accountId)).to.deep.equal(before);

    expect(expectSuccess(await client.call('POST', '/ecard-shared-url', { body: { url: '' } }))).to.deep.equal({ endpoint: null });
    expect(expectSuccess(await client.call('GET', '/ecard-shared-url'))).to.deep.equal({ endpoint: null });
    expect(expectSuccess(await client.call('GET', '/endpoints'))).to.deep.equal([]);
  });

  it('the URL guard of the key API applies (private targets refused when they are not allowed)', async () => {
    const app = await extraApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    const client = (await signedInConsole(ctx.stack, { account: ctx.account, url: app.url })).client;
    const messages = expectFailure(await client.call('POST', '/ecard-shared-url', { body: { url: 'https://192.168.1.1/hook' } }), 400, 'invalid_parameter');
    expect(messages[0]).to.match(/^url: /);
    expect(await endpointsOf(ctx.account.accountId)).to.deep.equal([]);
  });

  it('in sandbox mode the URL is the sandbox account\'s', async () => {
    const client = (await signedInConsole(ctx.stack, { account: ctx.account })).client;
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    const url = `${ctx.receiver.url}${hookPath('console-sandbox')}`;
    expectSuccess(await client.call('POST', '/ecard-shared-url', { body: { url } }));
    expect((await endpointsOf(ctx.account.sandboxAccountId)).map((e) => e.url)).to.deep.equal([url]);
    expect(await endpointsOf(ctx.account.accountId)).to.deep.equal([]);
  });

  it('shows and rotates the signing secret only after a step-up (403 step_up_required before, nothing rotated)', async () => {
    const client = (await signedInConsole(ctx.stack, { account: ctx.account })).client;
    expectFailure(await client.call('GET', '/secret'), 403, 'step_up_required');
    const original = (await accountSecret(ctx.stack.services, ctx.account.accountId)).secret;
    expectFailure(await client.call('POST', '/secret/rotate'), 403, 'step_up_required');
    expect((await accountSecret(ctx.stack.services, ctx.account.accountId)).secret).to.equal(original);

    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expect(expectSuccess(await client.call('GET', '/secret'))).to.deep.equal({ secret: original, previous: null });
    expectFailure(await client.call('POST', '/secret/rotate', { csrf: null }), 403, 'csrf_invalid');
    expect((await accountSecret(ctx.stack.services, ctx.account.accountId)).secret).to.equal(original);
    const rotated = expectSuccess(await client.call('POST', '/secret/rotate')) as { secret: string; previous: string | null };
    expect(rotated.secret).to.match(/^whsec_/).and.not.equal(original);
    expect(rotated.previous).to.equal(original);
    expect(expectSuccess(await client.call('GET', '/secret'))).to.deep.equal(rotated);
    expect((await accountSecret(ctx.stack.services, ctx.account.accountId)).secret).to.equal(rotated.secret);
  });

  it('step-up expires after 10 minutes (clock injected)', async () => {
    let now = new Date('2030-03-01T08:00:00Z');
    const app = await extraApp({ now: () => now });
    const client = (await signedInConsole(ctx.stack, { account: ctx.account, url: app.url })).client;
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    now = new Date(now.getTime() + 9 * 60_000);
    expectSuccess(await client.call('GET', '/secret'));
    now = new Date(now.getTime() + 2 * 60_000);
    expectFailure(await client.call('GET', '/secret'), 403, 'step_up_required');
  });

  // The steps of one flow, in order: each it goes on from where the one before it left.
  describe('subscriptions, endpoints and the delivery log', () => {
    let client: ConsoleClient;
    let path: string;
    let endpointId: number;
    let settled: Awaited<ReturnType<typeof ctx.hooks.settled>>;
    let delivery: (typeof settled)[number];
    let shared: DeliveryView;
    // webhookContext's beforeEach makes a fresh account for every it; this flow keeps the one its first it got.
    let flow: Pick<typeof ctx, 'account' | 'hooks'> | undefined;
    beforeEach(() => {
      flow ??= { account: ctx.account, hooks: ctx.hooks };
      Object.assign(ctx, flow);
    });

    it('lists a member-change subscription; an ecard_shared URL is an endpoint but not a subscription', async () => {
      client = (await signedInConsole(ctx.stack, { account: ctx.account })).client;
      path = hookPath('console-member');
      const url = `${ctx.receiver.url}${path}`;
      endpointId = await ctx.hooks.subscribe('team_member_created', url);
      const subscriptions = expectSuccess(await client.call('GET', '/subscriptions')) as EndpointView[];
      expect(subscriptions.map((s) => [s.id, s.kind, s.event_type, s.url])).to.deep.equal([[endpointId, 'member_change', 'team_member_created', url]]);
      // An ecard_shared URL is an endpoint but not a subscription.
      expectSuccess(await client.call('POST', '/ecard-shared-url', { body: { url: `${ctx.receiver.url}${hookPath('console-shared-2')}` } }));
      expect((expectSuccess(await client.call('GET', '/subscriptions')) as EndpointView[]).map((s) => s.id)).to.deep.equal([endpointId]);
      expect((expectSuccess(await client.call('GET', '/endpoints')) as EndpointView[]).map((e) => e.kind)).to.deep.equal(['member_change', 'ecard_shared']);
    });

    it('filters and pages the delivery log as the key API does, the same rows; bad filters are 400', async () => {
      await ctx.hooks.upsert({ email: 'console-one@example.com' });
      await ctx.hooks.upsert({ email: 'console-two@example.com' });
      settled = await ctx.hooks.settled(endpointId, 2);

      // The same filters and paging as the key API, the same rows.
      const page = await client.call('GET', `/deliveries?endpoint_id=${endpointId}&perPage=1&page=2`);
      expect(expectSuccess(page)).to.deep.equal(expectSuccess(await ctx.hooks.api('GET', `/webhook/deliveries?endpoint_id=${endpointId}&perPage=1&page=2`)));
      expect(page.body.meta).to.deep.equal({ page: 2, perPage: 1, total: 2, totalPages: 2 });
      expect((expectSuccess(page) as DeliveryView[])[0]!.id).to.equal(settled[0]!.id);
      expect(expectSuccess(await client.call('GET', '/deliveries?status=Failed'))).to.deep.equal([]);
      expect(expectSuccess(await client.call('GET', '/deliveries?dateFrom=2099-01-01T00:00:00Z'))).to.deep.equal([]);
      expect((expectSuccess(await client.call('GET', '/deliveries?event_type=team_member_created')) as DeliveryView[]).length).to.equal(2);
      expectFailure(await client.call('GET', '/deliveries?status=Lost'), 400, 'invalid_parameter');
      expectFailure(await client.call('GET', '/deliveries?perPage=1000'), 400, 'invalid_parameter');
      expectFailure(await client.call('GET', '/deliveries?dateFrom=yesterday'), 400, 'invalid_parameter');
    });

    it('shows a delivery with every attempt, as the key API does', async () => {
      delivery = settled[0]!;
      const detail = expectSuccess(await client.call('GET', `/deliveries/${delivery.id}`)) as DeliveryDetailView;
      expect(detail).to.deep.equal(await ctx.hooks.delivery(delivery.id));
      expect(detail.attempt_log.map((a) => a.outcome)).to.deep.equal(['delivered']);
    });

    it('replays a delivery, which gets a second attempt; a bad id is 400', async () => {
      const replayed = expectSuccess(await client.call('POST', `/deliveries/${delivery.id}/replay`)) as DeliveryView;
      expect(replayed.id).to.equal(delivery.id);
      const after = await eventually(
        async () => expectSuccess(await client.call('GET', `/deliveries/${delivery.id}`)) as DeliveryDetailView,
        (d) => d.attempt_log.length === 2,
        15_000,
      );
      expect(after.attempt_log.map((a) => [a.trigger, a.outcome])).to.deep.equal([
        ['auto', 'delivered'],
        ['replay', 'delivered'],
      ]);
      expectFailure(await client.call('POST', '/deliveries/abc/replay'), 400, 'invalid_parameter');
    });

    it('a test send goes to a paused endpoint, and enable makes it active again', async () => {
      // Paused (3 exhausted deliveries), then re-enabled from the console; a test send goes even while paused.
      await ctx.stack.models.WebhookEndpoint.update({ paused_at: new Date(), consecutive_failures: 3 }, { where: { id: endpointId } });
      expect((expectSuccess(await client.call('GET', '/endpoints')) as EndpointView[])[0]).to.include({ id: endpointId, state: 'paused', consecutive_failures: 3 });
      const test = expectSuccess(await client.call('POST', '/webhook-test', { body: { endpoint_id: endpointId } })) as DeliveryView;
      expect(test).to.include({ endpoint_id: endpointId, trigger: 'test', event_type: 'team_member_created' });
      await eventually(async () => ctx.receiver.at(path).length, (n) => n >= 4, 15_000);
      expectFailure(await client.call('POST', '/webhook-test', { body: { endpoint_id: 'one' } }), 400, 'invalid_parameter');
      const enabled = expectSuccess(await client.call('POST', `/endpoints/${endpointId}/enable`)) as EndpointView;
      expect(enabled).to.include({ id: endpointId, state: 'active', consecutive_failures: 0 });
    });

    it('a test without endpoint_id goes to the ecard_shared URL', async () => {
      // A test without endpoint_id goes to the ecard_shared URL.
      shared = expectSuccess(await client.call('POST', '/webhook-test', { body: {} })) as DeliveryView;
      expect(shared).to.include({ event_type: 'ecard_shared', trigger: 'test' });
    });

    it('removes a subscription (then 404); the ecard_shared endpoint is not one and stays', async () => {
      expect(expectSuccess(await client.call('POST', `/subscriptions/${endpointId}/remove`))).to.deep.equal({ id: endpointId, removed: true });
      expect(expectSuccess(await client.call('GET', '/subscriptions'))).to.deep.equal([]);
      expectFailure(await client.call('POST', `/subscriptions/${endpointId}/remove`), 404, 'not_found');
      // The ecard_shared endpoint is not a subscription.
      expectFailure(await client.call('POST', `/subscriptions/${shared.endpoint_id}/remove`), 404, 'not_found');
      expect((expectSuccess(await client.call('GET', '/endpoints')) as EndpointView[]).map((e) => e.id)).to.deep.equal([shared.endpoint_id]);
    });
  });

  it('another account\'s endpoints, deliveries and subscriptions are 404 (in paths, bodies and the endpoint_id filter), B unchanged', async () => {
    const b = await newAccount(ctx.stack.models, 'enterprise');
    const bHooks = webhookApi(ctx.stack, b);
    const bEndpointId = await bHooks.subscribe('team_member_created', `${ctx.receiver.url}${hookPath('console-b')}`);
    await ctx.stack.models.WebhookEndpoint.update({ paused_at: new Date(), consecutive_failures: 3 }, { where: { id: bEndpointId } });
    const bDelivery = await insertDelivery(ctx.stack.models, b.accountId, bEndpointId, { workflowStarted: true });
    await bDelivery.update({ status: 'Delivered', finished_at: new Date() });
    const bSecret = (await accountSecret(ctx.stack.services, b.accountId)).secret;
    const snapshot = async () => ({
      endpoints: await endpointsOf(b.accountId),
      deliveries: await ctx.stack.models.WebhookDelivery.findAll({ where: { account_id: b.accountId }, raw: true }),
      attempts: await ctx.stack.models.WebhookAttempt.count({ where: { delivery_id: bDelivery.id } }),
    });
    const before = await snapshot();

    const client = (await signedInConsole(ctx.stack, { account: ctx.account })).client;
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    expectFailure(await client.call('POST', `/endpoints/${bEndpointId}/enable`), 404, 'not_found');
    expectFailure(await client.call('GET', `/deliveries/${bDelivery.id}`), 404, 'not_found');
    expectFailure(await client.call('POST', `/deliveries/${bDelivery.id}/replay`), 404, 'not_found');
    expectFailure(await client.call('GET', `/deliveries?endpoint_id=${bEndpointId}`), 404, 'not_found');
    expectFailure(await client.call('POST', '/webhook-test', { body: { endpoint_id: bEndpointId } }), 404, 'not_found');
    expectFailure(await client.call('POST', `/subscriptions/${bEndpointId}/remove`), 404, 'not_found');
    expect(expectSuccess(await client.call('GET', '/deliveries'))).to.deep.equal([]);
    expect(expectSuccess(await client.call('GET', '/endpoints'))).to.deep.equal([]);
    expect(expectSuccess(await client.call('GET', '/subscriptions'))).to.deep.equal([]);
    expect((expectSuccess(await client.call('GET', '/secret')) as { secret: string }).secret).not.to.equal(bSecret);
    expectSuccess(await client.call('POST', '/secret/rotate'));

    expect(await snapshot()).to.deep.equal(before);
    expect((await accountSecret(ctx.stack.services, b.accountId)).secret).to.equal(bSecret);
  });

  it('without a session every webhook endpoint is 401', async () => {
    const anonymous = consoleClient(ctx.stack.url);
    for (const [method, path] of [
      ['GET', '/ecard-shared-url'],
      ['POST', '/ecard-shared-url'],
      ['GET', '/secret'],
      ['POST', '/secret/rotate'],
      ['GET', '/endpoints'],
      ['POST', '/endpoints/1/enable'],
      ['GET', '/deliveries'],
      ['GET', '/deliveries/1'],
      ['POST', '/deliveries/1/replay'],
      ['POST', '/webhook-test'],
      ['GET', '/subscriptions'],
      ['POST', '/subscriptions/1/remove'],
    ] as const) {
      expectFailure(await anonymous.call(method, path, method === 'POST' ? { body: {} } : {}), 401, 'session_required');
    }
  });
});
