import { expect } from 'chai';
import { apiClient, call, expectSuccess, newAccount } from '../helpers/api.ts';
import { OWNER_PASSWORD, ownerOnPages, pageClient } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console pages: rewards (settings, spend rules, code uploads, inventory, orders)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let counter = 0;
  before(async () => {
    stack = await testStack();
  });

  const signedIn = () => ownerOnPages(stack);
  const stepUp = async ({ browser, csrf }: Awaited<ReturnType<typeof signedIn>>) => {
    expect((await browser.post('/v2/console/step-up', { _csrf: csrf, next: '/v2/console/rewards', password: OWNER_PASSWORD })).status).to.equal(303);
  };
  const { ok } = apiClient(() => stack);
  /** What the account holds: settings rows, rules, codes (a refused form must leave all three as they were). */
  const written = async (accountId: number) => ({
    settings: await stack.models.GiftSettings.count({ where: { account_id: accountId } }),
    rules: (await stack.models.GiftRule.findAll({ where: { account_id: accountId }, order: [['period', 'ASC']] })).map((r) => [r.period, r.limit_cents]),
    codes: await stack.models.GiftCode.count({ where: { account_id: accountId } }),
  });
  const codeForm = (fields: Record<string, string>, file?: string) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    if (file !== undefined) form.set('file', new Blob([file], { type: 'text/plain' }), 'codes.txt');
    return form;
  };
  async function addOrder(accountId: number, fields: Record<string, unknown> = {}) {
    return stack.models.GiftOrder.create({
      account_id: accountId, order_key: `console-pages:${process.pid}:${accountId}:${++counter}`, scope: 'widget', campaign_id: null, automation_id: null,
      send_id: null, send_recipient_id: null, member_id: null, recipient_name: 'Rita Reyes', recipient_email: 'rita@example.com',
      product_id: 'manual:Acme:25', brand: 'Acme', amount_cents: 2500, currency: 'USD', source: 'manual', spend_day: '2026-03-18', ...fields,
    });
  }

  it('shows settings, rules and inventory; saves the settings and a spend rule by form (303, notice), as the key API sees them', async () => {
    const { account, browser, csrf } = await signedIn();
    const page = await browser.get('/v2/console/rewards');
    const html = await page.text();
    expect(page.status).to.equal(200);
    expect(html).to.include('<label for="min_amount">Smallest card (USD)</label>').and.include('No spend rules.').and.include('No codes uploaded yet.');
    expect(html).to.include('enctype="multipart/form-data"').and.include('<a href="/v2/console/rewards" aria-current="page">Rewards</a>');

    // The settings need the password again: the form goes to step-up, which comes back here; nothing is saved.
    const asked = await browser.post('/v2/console/rewards/settings', { _csrf: csrf, provider_mode: 'provider' });
    expect(asked.status).to.equal(303);
    expect(asked.headers.get('location')).to.equal(`/v2/console/step-up?next=${encodeURIComponent('/v2/console/rewards')}`);
    expect(await stack.models.GiftSettings.count({ where: { account_id: account.accountId } })).to.equal(0);
    await stepUp({ account, browser, csrf });

    const saved = await browser.post('/v2/console/rewards/settings', { _csrf: csrf, provider_mode: 'provider', min_amount: '5', max_amount: '250.5', velocity_limits_enabled: 'off', claim_expiry_days: '30' });
    expect(saved.status).to.equal(303);
    expect(saved.headers.get('location')).to.equal('/v2/console/rewards?done=settings');
    const expected = { provider_mode: 'provider', provider: null, currency: 'USD', min_amount: 5, max_amount: 250.5, velocity_limits_enabled: false, claim_expiry_days: 30 };
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.liveKey)).to.deep.equal(expected);
    const after = await (await browser.get('/v2/console/rewards?done=settings')).text();
    expect(after).to.include('The settings are saved.').and.include('<option value="provider" selected>').and.include('value="250.5"').and.include('<option value="off" selected>');
    // Blank fields keep what is set.
    expect((await browser.post('/v2/console/rewards/settings', { _csrf: csrf, provider_mode: 'manual', min_amount: '', claim_expiry_days: '' })).status).to.equal(303);
    expect(await ok('GET', '/gift-card/getSettings', undefined, account.liveKey)).to.deep.equal({ ...expected, provider_mode: 'manual' });

    const rule = await browser.post('/v2/console/rewards/rules', { _csrf: csrf, period: 'week', limit: '1000' });
    expect(rule.status).to.equal(303);
    expect(rule.headers.get('location')).to.equal('/v2/console/rewards?done=rule');
    const rules = await ok<{ rules: Array<Record<string, unknown>> }>('GET', '/gift-card/getRules', undefined, account.liveKey);
    expect(rules.rules.map((r) => [r.period, r.limit, r.used])).to.deep.equal([['week', 1000, 0]]);
    const shown = await (await browser.get('/v2/console/rewards?done=rule')).text();
    expect(shown).to.include('The spend rule is saved.').and.include('Not enforced').and.include('<td>week</td><td>1000</td><td>0</td><td>1000</td>');
    const removed = await browser.post('/v2/console/rewards/rules', { _csrf: csrf, period: 'week', limit: '0' });
    expect(removed.headers.get('location')).to.equal('/v2/console/rewards?done=rule-removed');
    expect((await ok<{ rules: unknown[] }>('GET', '/gift-card/getRules', undefined, account.liveKey)).rules).to.deep.equal([]);
  });

  it('uploads a code file (multipart): the notice counts added, duplicates and invalid lines; the inventory shows them', async () => {
    const { account, browser, csrf } = await signedIn();
    const tag = `${process.pid}-${Date.now()}`;
    const file = `PG-${tag}-0001,1234\nPG-${tag}-0002,2030-12-31\n\npg ${tag} 0002\nnot,a,code,line\nPG-${tag}-0003,,2029-02-30\n`;
    const res = await browser.postMultipart('/v2/console/rewards/codes', codeForm({ _csrf: csrf, brand: 'Acme', denomination: '25' }, file));
    expect(res.status, await res.text()).to.equal(303);
    const location = res.headers.get('location')!;
    expect(location).to.equal('/v2/console/rewards?done=codes&added=2&duplicates=1&invalid=2&lines=5%2C6');
    const page = await (await browser.get(location)).text();
    expect(page).to.include('Codes uploaded: 2 added, 1 duplicates skipped, 2 invalid lines: 5, 6.');
    expect(page).to.include('<td>Acme</td><td>25</td><td>USD</td><td>2</td><td>0</td>').and.not.include(`PG-${tag}`);
    expect(await stack.models.GiftCode.count({ where: { account_id: account.accountId, brand: 'Acme', denomination_cents: 2500 } })).to.equal(2);
    expect(await ok('GET', '/gift-card/rewardInventory', undefined, account.liveKey)).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 2, assigned: 0 }]);
  });

  it('bad input → a 400 or 422 page with nothing written', async () => {
    const { account, browser, csrf } = await signedIn();
    await stepUp({ account, browser, csrf });
    const before = await written(account.accountId);
    const refused = async (res: Response, status: number, text: string) => {
      const html = await res.text();
      expect(res.status, html).to.equal(status);
      expect(html).to.include('Something went wrong').and.include(text);
    };
    await refused(await browser.post('/v2/console/rewards/settings', { _csrf: csrf, min_amount: 'five' }), 400, 'min_amount');
    await refused(await browser.post('/v2/console/rewards/settings', { _csrf: csrf, min_amount: '600' }), 422, 'min ≤ max');
    await refused(await browser.post('/v2/console/rewards/settings', { _csrf: csrf, provider_mode: 'magic' }), 400, 'provider_mode');
    await refused(await browser.post('/v2/console/rewards/rules', { _csrf: csrf, period: 'year', limit: '5' }), 400, 'period');
    await refused(await browser.post('/v2/console/rewards/rules', { _csrf: csrf, period: 'day', limit: '' }), 422, 'limit is required');
    const upload = (fields: Record<string, string>, file?: string) => browser.postMultipart('/v2/console/rewards/codes', codeForm({ _csrf: csrf, ...fields }, file));
    await refused(await upload({ brand: 'Acme', denomination: '25' }), 422, 'file is required');
    await refused(await upload({ brand: '', denomination: '25' }, 'CODE-123456789'), 422, 'brand is required');
    await refused(await upload({ brand: 'Acme', denomination: '0' }, 'CODE-123456789'), 400, 'denomination');
    await refused(await browser.post('/v2/console/rewards/codes', { _csrf: csrf, brand: 'Acme', denomination: '25' }), 415, 'multipart/form-data');
    const malformed = await fetch(`${stack.url}/v2/console/rewards/codes`, {
      method: 'POST',
      headers: { Cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '), Origin: stack.url, 'Content-Type': 'multipart/form-data; boundary=x' },
      body: 'no parts here',
    });
    await refused(malformed, 400, 'not a valid multipart form');
    expect(await written(account.accountId)).to.deep.equal(before);
    expect(before).to.deep.equal({ settings: 0, rules: [], codes: 0 });
  });

  it('no _csrf, a wrong one or a foreign Origin → 403 and nothing written; no session → 303 to sign-in', async () => {
    const { account, browser, csrf } = await signedIn();
    expect((await browser.post('/v2/console/rewards/settings', { min_amount: '7' })).status).to.equal(403);
    expect((await browser.post('/v2/console/rewards/settings', { _csrf: csrf, min_amount: '7' }, 'https://evil.example')).status).to.equal(403);
    expect((await browser.post('/v2/console/rewards/rules', { _csrf: 'wrong', period: 'day', limit: '7' })).status).to.equal(403);
    expect((await browser.post('/v2/console/rewards/rules', { _csrf: csrf, period: 'day', limit: '7' }, null)).status).to.equal(403);
    expect((await browser.postMultipart('/v2/console/rewards/codes', codeForm({ brand: 'Acme', denomination: '25' }, 'CODE-123456789'))).status).to.equal(403);
    expect((await browser.postMultipart('/v2/console/rewards/codes', codeForm({ _csrf: csrf, brand: 'Acme', denomination: '25' }, 'CODE-123456789'), 'https://evil.example')).status).to.equal(403);
    expect(await written(account.accountId)).to.deep.equal({ settings: 0, rules: [], codes: 0 });

    const anonymous = pageClient(stack.url);
    for (const path of ['/v2/console/rewards', '/v2/console/rewards/orders?scope=widget']) {
      const res = await anonymous.get(path);
      expect(res.status, path).to.equal(303);
      expect(res.headers.get('location')).to.equal(`/v2/console/sign-in?next=${encodeURIComponent(path)}`);
    }
    const post = await anonymous.post('/v2/console/rewards/rules', { _csrf: csrf, period: 'day', limit: '7' });
    expect(post.status).to.equal(303);
    expect(post.headers.get('location')).to.equal('/v2/console/sign-in?next=%2Fv2%2Fconsole%2F');
    expect((await written(account.accountId)).rules).to.deep.equal([]);
  });

  it('lists orders with filters and paging; another account’s campaign in the filter → 404', async () => {
    const { account, browser } = await signedIn();
    const other = await newAccount(stack.models);
    const first = await addOrder(account.accountId, { recipient_name: 'First <one>', created_at: new Date('2026-03-01T00:00:00.000Z') });
    const second = await addOrder(account.accountId, { payment_status: 'paid', fulfillment_status: 'fulfilled', code_last4: 'WXYZ', fulfilled_at: new Date('2026-03-02T00:00:01.000Z'), created_at: new Date('2026-03-02T00:00:00.000Z') });
    await addOrder(other.accountId, { recipient_name: 'Not mine' });
    const ids = (html: string) => [...html.matchAll(/<tr><td>(\d+)<\/td>/g)].map((m) => Number(m[1]));

    const all = await browser.get('/v2/console/rewards/orders');
    const html = await all.text();
    expect(all.status).to.equal(200);
    expect(ids(html)).to.deep.equal([second.id, first.id]);
    expect(html).to.include('Orders (2)').and.include('First &lt;one&gt;').and.include('<code>****WXYZ</code>').and.not.include('Not mine');
    // A GET form sends blank fields: they mean "any".
    const pending = await (await browser.get('/v2/console/rewards/orders?payment_status=pending&fulfillment_status=&scope=&campaign_id=')).text();
    expect(ids(pending)).to.deep.equal([first.id]);
    expect(pending).to.include('<option value="pending" selected>');
    const paged = await (await browser.get('/v2/console/rewards/orders?perPage=1&scope=widget')).text();
    expect(ids(paged)).to.deep.equal([second.id]);
    expect(paged).to.include('Page 1 of 2.').and.include('href="/v2/console/rewards/orders?perPage&#x3D;1&amp;scope&#x3D;widget&amp;page&#x3D;2"');

    const theirs = (expectSuccess(await call(stack.url, 'POST', '/v2/api/campaign/save', { key: other.liveKey, body: { campaign: { campaign_name: 'Theirs' } } })) as { id: number }).id;
    const foreign = await browser.get(`/v2/console/rewards/orders?campaign_id=${theirs}`);
    expect(foreign.status).to.equal(404);
    expect(await foreign.text()).to.include('Something went wrong').and.not.include('Not mine');
    expect((await browser.get('/v2/console/rewards/orders?payment_status=lost')).status).to.equal(400);
  });
});
