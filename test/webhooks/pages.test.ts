import { expect } from 'chai';
import { newAccount } from '../helpers/api.ts';
import { pageClient, setOwnerPassword, signedInPages } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { hookPath, insertDelivery, webhookApi, webhookContext } from '../helpers/webhooks.ts';
import { accountSecret } from '../../services/webhooks/secrets.ts';

describe('console pages: webhooks', function () {
  this.timeout(60_000);
  const ctx = webhookContext();
  const password = 'correct horse battery';

  async function signedIn(accountId = ctx.account.accountId) {
    const email = await setOwnerPassword(ctx.stack.models, accountId, password);
    return signedInPages(ctx.stack.url, email, password);
  }
  const endpointsOf = (accountId: number) => ctx.stack.models.WebhookEndpoint.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']], raw: true });

  it('no session → 303 to sign-in with next; the group is in the navigation', async () => {
    const anonymous = pageClient(ctx.stack.url);
    for (const path of ['/v2/console/webhooks', '/v2/console/webhooks/deliveries?status=Failed', '/v2/console/webhooks/secret', '/v2/console/webhooks/subscriptions', '/v2/console/webhooks/deliveries/1']) {
      const res = await anonymous.get(path);
      expect(res.status, path).to.equal(303);
      expect(res.headers.get('location')).to.equal(`/v2/console/sign-in?next=${encodeURIComponent(path)}`);
    }
    const { browser } = await signedIn();
    const home = await (await browser.get('/v2/console/')).text();
    expect(home).to.include('<a href="/v2/console/webhooks">Webhooks</a>');
  });

  it('sets and clears the ecard_shared URL by form (303 with a notice); bad input writes nothing; no _csrf → 403', async () => {
    const { browser, csrf } = await signedIn();
    const page = await browser.get('/v2/console/webhooks');
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.include('<label for="url">').and.include('No endpoints yet.');
    const url = `${ctx.receiver.url}${hookPath('pages-shared')}`;

    expect((await browser.post('/v2/console/webhooks/ecard-shared-url', { url })).status).to.equal(403);
    expect((await browser.post('/v2/console/webhooks/ecard-shared-url', { _csrf: csrf, url }, 'https://evil.example')).status).to.equal(403);
    const bad = await browser.post('/v2/console/webhooks/ecard-shared-url', { _csrf: csrf, url: 'ftp://example.com/x' });
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.include('url');
    expect(await endpointsOf(ctx.account.accountId)).to.deep.equal([]);

    const saved = await browser.post('/v2/console/webhooks/ecard-shared-url', { _csrf: csrf, url });
    expect(saved.status).to.equal(303);
    expect(saved.headers.get('location')).to.equal('/v2/console/webhooks?done=url_saved');
    const after = await (await browser.get('/v2/console/webhooks?done=url_saved')).text();
    expect(after).to.include('The ecard_shared URL is saved.').and.include(`value="${url}"`).and.include('ecard_shared');
    // The key API sees the same endpoint.
    expect(((await ctx.hooks.api('GET', '/webhook/endpoints')).body.data as Array<{ url: string }>).map((e) => e.url)).to.deep.equal([url]);

    const off = await browser.post('/v2/console/webhooks/ecard-shared-url', { _csrf: csrf, url: '' });
    expect(off.headers.get('location')).to.equal('/v2/console/webhooks?done=url_off');
    expect(await (await browser.get('/v2/console/webhooks?done=url_off')).text()).to.include('The ecard_shared webhook is off.').and.include('No endpoints yet.');
    expect((await ctx.hooks.api('GET', '/webhook/endpoints')).body.data).to.deep.equal([]);
  });

  it('the signing secret: a step-up first, then shown once (no-store); rotation needs the CSRF token and a step-up', async () => {
    const { browser, csrf } = await signedIn();
    const original = (await accountSecret(ctx.stack.services, ctx.account.accountId)).secret;
    const gate = await browser.get('/v2/console/webhooks/secret');
    expect(gate.status).to.equal(303);
    expect(gate.headers.get('location')).to.equal('/v2/console/step-up?next=%2Fv2%2Fconsole%2Fwebhooks%2Fsecret');
    const rotateEarly = await browser.post('/v2/console/webhooks/secret/rotate', { _csrf: csrf });
    expect(rotateEarly.status).to.equal(303);
    expect(rotateEarly.headers.get('location')).to.match(/^\/v2\/console\/step-up\?next=/);
    expect((await accountSecret(ctx.stack.services, ctx.account.accountId)).secret).to.equal(original);

    const stepped = await browser.post('/v2/console/step-up', { _csrf: csrf, next: '/v2/console/webhooks/secret', password });
    expect(stepped.headers.get('location')).to.equal('/v2/console/webhooks/secret');
    const shown = await browser.get('/v2/console/webhooks/secret');
    expect(shown.status).to.equal(200);
    expect(shown.headers.get('cache-control')).to.equal('no-store');
    const html = await shown.text();
    expect(html).to.include(original).and.not.include('Previous secret');

    expect((await browser.post('/v2/console/webhooks/secret/rotate', {})).status).to.equal(403);
    expect((await accountSecret(ctx.stack.services, ctx.account.accountId)).secret).to.equal(original);
    const rotated = await browser.post('/v2/console/webhooks/secret/rotate', { _csrf: csrf });
    expect(rotated.status).to.equal(200);
    expect(rotated.headers.get('cache-control')).to.equal('no-store');
    const now = (await accountSecret(ctx.stack.services, ctx.account.accountId)).secret;
    expect(now).to.match(/^whsec_/).and.not.equal(original);
    expect(await rotated.text()).to.include(now).and.include(original).and.include('Previous secret');
  });

  // The steps of one flow, in order: each it goes on from where the one before it left.
  describe('endpoints, a test send, the delivery log and a delivery\'s replay', () => {
    let browser: Awaited<ReturnType<typeof signedIn>>['browser'];
    let csrf: string;
    let path: string;
    let endpointId: number;
    let settled: Awaited<ReturnType<typeof ctx.hooks.settled>>;
    // webhookContext's beforeEach makes a fresh account for every it; this flow keeps the one its first it got.
    let flow: Pick<typeof ctx, 'account' | 'hooks'> | undefined;
    beforeEach(() => {
      flow ??= { account: ctx.account, hooks: ctx.hooks };
      Object.assign(ctx, flow);
    });

    it('lists a paused endpoint with its state and enables it by form (403 without the CSRF token)', async () => {
      ({ browser, csrf } = await signedIn());
      path = hookPath('pages-member');
      endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
      await ctx.stack.models.WebhookEndpoint.update({ paused_at: new Date(), consecutive_failures: 3 }, { where: { id: endpointId } });
      const list = await (await browser.get('/v2/console/webhooks')).text();
      expect(list).to.include('paused since').and.include(`Enable endpoint ${endpointId}`);
      expect((await browser.post(`/v2/console/webhooks/endpoints/${endpointId}/enable`, {})).status).to.equal(403);
      const enabled = await browser.post(`/v2/console/webhooks/endpoints/${endpointId}/enable`, { _csrf: csrf });
      expect(enabled.status).to.equal(303);
      expect(enabled.headers.get('location')).to.equal('/v2/console/webhooks?done=enabled');
      const after = await (await browser.get('/v2/console/webhooks?done=enabled')).text();
      expect(after).to.include('The endpoint is active again').and.not.include(`Enable endpoint ${endpointId}`);
      expect((await ctx.stack.models.WebhookEndpoint.findByPk(endpointId))!.paused_at).to.equal(null);
    });

    it('a test send lands on its delivery\'s page; an endpoint_id that is not a number is 400', async () => {
      // A test send lands on its delivery's page.
      const test = await browser.post('/v2/console/webhooks/test', { _csrf: csrf, endpoint_id: String(endpointId) });
      expect(test.status).to.equal(303);
      const testPath = test.headers.get('location')!;
      expect(testPath).to.match(/^\/v2\/console\/webhooks\/deliveries\/\d+\?done=tested$/);
      expect((await browser.post('/v2/console/webhooks/test', { _csrf: csrf, endpoint_id: 'one' })).status).to.equal(400);
    });

    it('the delivery log takes the key API\'s filters as GET fields (blank means any), with a link per delivery', async () => {
      for (let i = 0; i < 3; i++) await ctx.hooks.upsert({ email: `pages-${i}@example.com` });
      settled = await ctx.hooks.settled(endpointId, 4);

      // The log: 50 rows a page; the key API's filters as GET fields; blank fields mean any; a link per delivery.
      const log = await browser.get(`/v2/console/webhooks/deliveries?status=&event_type=&endpoint_id=${endpointId}&dateFrom=&dateTo=`);
      expect(log.status).to.equal(200);
      const logHtml = await log.text();
      for (const d of settled) expect(logHtml).to.include(`<a href="/v2/console/webhooks/deliveries/${d.id}">Delivery ${d.id}</a>`);
      expect(logHtml).to.include('4 deliveries · page 1 of 1').and.include('<th scope="col">Status</th>');
      const none = await (await browser.get('/v2/console/webhooks/deliveries?status=Failed')).text();
      expect(none).to.include('No deliveries match.').and.include('<option value="Failed" selected>');
      expect(await (await browser.get('/v2/console/webhooks/deliveries?dateFrom=2099-01-01T00:00:00Z')).text()).to.include('No deliveries match.');
      expect((await browser.get('/v2/console/webhooks/deliveries?status=Lost')).status).to.equal(400);
      expect((await browser.get('/v2/console/webhooks/deliveries?dateFrom=yesterday')).status).to.equal(400);
    });

    it('a delivery\'s page shows its attempts, and replay sends it again (403 without the CSRF token)', async () => {
      const delivery = settled.find((d) => d.trigger === 'auto')!;
      const detail = await (await browser.get(`/v2/console/webhooks/deliveries/${delivery.id}`)).text();
      expect(detail).to.include(`Replay delivery ${delivery.id}`).and.include('<td>delivered</td>');
      expect((await browser.post(`/v2/console/webhooks/deliveries/${delivery.id}/replay`, {})).status).to.equal(403);
      const replayed = await browser.post(`/v2/console/webhooks/deliveries/${delivery.id}/replay`, { _csrf: csrf });
      expect(replayed.status).to.equal(303);
      expect(replayed.headers.get('location')).to.equal(`/v2/console/webhooks/deliveries/${delivery.id}?done=replayed`);
      const replayPage = await eventually(
        async () => (await browser.get(`/v2/console/webhooks/deliveries/${delivery.id}?done=replayed`)).text(),
        (html) => html.includes('<td>replay</td>') && html.includes('Replay delivery'),
        15_000,
      );
      expect(replayPage).to.include('The delivery is being sent again').and.include('<td>auto</td>').and.include('<td>2</td>');
    });
  });

  it('delivery log pages: 50 rows each, with filters kept in the page links', async () => {
    const { browser } = await signedIn();
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${hookPath('pages-many')}`);
    for (let i = 0; i < 55; i++) await (await insertDelivery(ctx.stack.models, ctx.account.accountId, endpointId, { workflowStarted: true })).update({ status: 'Delivered', finished_at: new Date() });
    const first = await (await browser.get(`/v2/console/webhooks/deliveries?endpoint_id=${endpointId}`)).text();
    expect(first.match(/>Delivery \d+<\/a>/g)).to.have.length(50);
    expect(first).to.include('55 deliveries · page 1 of 2');
    // Handlebars escapes `=` and `&` in the attribute; the browser reads it back as the plain URL.
    const next = /href="([^"]*)" rel="next"/.exec(first)?.[1]?.replaceAll('&#x3D;', '=').replaceAll('&amp;', '&');
    expect(next).to.equal(`/v2/console/webhooks/deliveries?endpoint_id=${endpointId}&page=2`);
    const second = await (await browser.get(`/v2/console/webhooks/deliveries?endpoint_id=${endpointId}&page=2`)).text();
    expect(second.match(/>Delivery \d+<\/a>/g)).to.have.length(5);
    expect(second).to.include('Previous page').and.not.include('Next page');
  });

  it('subscriptions: listed and removed by form (303); the ecard_shared URL is not one', async () => {
    const { browser, csrf } = await signedIn();
    const url = `${ctx.receiver.url}${hookPath('pages-sub')}`;
    const endpointId = await ctx.hooks.subscribe('team_member_created', url);
    expect((await browser.post('/v2/console/webhooks/ecard-shared-url', { _csrf: csrf, url: `${ctx.receiver.url}${hookPath('pages-sub-shared')}` })).status).to.equal(303);
    const html = await (await browser.get('/v2/console/webhooks/subscriptions')).text();
    expect(html).to.include(url).and.include(`Remove subscription ${endpointId}`);
    expect(html.match(/Remove subscription \d+/g)).to.have.length(1);
    expect((await browser.post(`/v2/console/webhooks/subscriptions/${endpointId}/remove`, {})).status).to.equal(403);
    const removed = await browser.post(`/v2/console/webhooks/subscriptions/${endpointId}/remove`, { _csrf: csrf });
    expect(removed.status).to.equal(303);
    expect(removed.headers.get('location')).to.equal('/v2/console/webhooks/subscriptions?done=removed');
    expect(await (await browser.get('/v2/console/webhooks/subscriptions?done=removed')).text()).to.include('The subscription is removed.').and.include('No subscriptions.');
    expect((await browser.post(`/v2/console/webhooks/subscriptions/${endpointId}/remove`, { _csrf: csrf })).status).to.equal(404);
  });

  it('another account\'s endpoints, deliveries and subscriptions are 404 pages (paths, form fields, the endpoint_id filter), B unchanged', async () => {
    const b = await newAccount(ctx.stack.models, 'enterprise');
    const bEndpointId = await webhookApi(ctx.stack, b).subscribe('team_member_created', `${ctx.receiver.url}${hookPath('pages-b')}`);
    await ctx.stack.models.WebhookEndpoint.update({ paused_at: new Date(), consecutive_failures: 3 }, { where: { id: bEndpointId } });
    const bDelivery = await insertDelivery(ctx.stack.models, b.accountId, bEndpointId, { workflowStarted: true });
    await bDelivery.update({ status: 'Delivered', finished_at: new Date() });
    const snapshot = async () => ({
      endpoints: await endpointsOf(b.accountId),
      deliveries: await ctx.stack.models.WebhookDelivery.findAll({ where: { account_id: b.accountId }, raw: true }),
      attempts: await ctx.stack.models.WebhookAttempt.count({ where: { delivery_id: bDelivery.id } }),
    });
    const before = await snapshot();

    const { browser, csrf } = await signedIn();
    const notFound = async (res: Response) => {
      expect(res.status, res.url).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
    };
    await notFound(await browser.post(`/v2/console/webhooks/endpoints/${bEndpointId}/enable`, { _csrf: csrf }));
    await notFound(await browser.get(`/v2/console/webhooks/deliveries/${bDelivery.id}`));
    await notFound(await browser.post(`/v2/console/webhooks/deliveries/${bDelivery.id}/replay`, { _csrf: csrf }));
    await notFound(await browser.get(`/v2/console/webhooks/deliveries?endpoint_id=${bEndpointId}`));
    await notFound(await browser.post('/v2/console/webhooks/test', { _csrf: csrf, endpoint_id: String(bEndpointId) }));
    await notFound(await browser.post(`/v2/console/webhooks/subscriptions/${bEndpointId}/remove`, { _csrf: csrf }));
    expect(await (await browser.get('/v2/console/webhooks')).text()).to.include('No endpoints yet.').and.not.include('pages-b');
    expect(await snapshot()).to.deep.equal(before);
  });

});
