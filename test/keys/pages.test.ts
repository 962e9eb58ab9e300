import { expect } from 'chai';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { firingZone, insertAutomation } from '../helpers/automations.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { hidden, ownerOnPages, type signedInPages, OWNER_PASSWORD } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Pages = Awaited<ReturnType<typeof signedInPages>>;

describe('console pages: API keys, confirmation tokens, deletes', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const signedIn = (plan: 'free' | 'pro' = 'free') => ownerOnPages(stack, plan);
  const stepUp = async ({ browser, csrf }: Pages, next: string) => {
    const res = await browser.post('/v2/console/step-up', { _csrf: csrf, next, password: OWNER_PASSWORD });
    expect(res.status).to.equal(303);
  };
  const scoped = (levels: Record<string, string>) => Object.fromEntries(Object.entries(levels).map(([area, level]) => [`perm_${area}`, level]));

  it('lists the keys; a scoped key is created and shown once, and works on the key API', async () => {
    const { account, browser, csrf } = await signedIn();
    const list = await browser.get('/v2/console/keys');
    const html = await list.text();
    expect(list.status).to.equal(200);
    expect(html).to.include('<th scope="col">Last used</th>').and.include('Full access').and.include(`…${account.liveKey.slice(-4)}`);
    expect(html).not.to.include(account.liveKey);
    const form = await (await browser.get('/v2/console/keys/new')).text();
    expect(form).to.include('<label for="perm_gift_cards">gift cards</label>').and.include('<label for="name">Name</label>');
    expect((await browser.post('/v2/console/keys', { name: 'Reporting', access: 'scoped', ...scoped({ analytics: 'view' }) })).status).to.equal(403);
    const created = await browser.post('/v2/console/keys', { _csrf: csrf, name: 'Reporting', access: 'scoped', ...scoped({ analytics: 'view', sends: 'manage' }) });
    expect(created.status).to.equal(200);
    expect(created.headers.get('cache-control')).to.equal('no-store');
    const page = await created.text();
    const key = /id="secret"[^>]*value="(csk_live_[0-9A-Za-z]+)"/.exec(page)?.[1];
    expect(key, page).to.be.a('string');
    const info = expectSuccess(await call(stack.url, 'GET', '/v2/api/key/info', { key: key! })) as Record<string, unknown>;
    expect(JSON.stringify(info)).to.include('analytics');
    const row = await stack.models.ApiKey.findOne({ where: { account_id: account.accountId, name: 'Reporting' }, rejectOnEmpty: true });
    expect(row.full_access).to.equal(false);
    expect(row.permissions).to.include({ analytics: 'view', sends: 'manage', widgets: 'none' });
    const again = await (await browser.get('/v2/console/keys')).text();
    expect(again).to.include('Reporting').and.include(`…${key!.slice(-4)}`).and.not.include(key!);
  });

  it('renames and rescopes, rotates with grace (the new key shown once) and revokes', async () => {
    const { account, browser, csrf } = await signedIn();
    const made = await browser.post('/v2/console/keys', { _csrf: csrf, name: 'Ops', access: 'scoped', ...scoped({ widgets: 'view' }) });
    expect(made.status).to.equal(200);
    const row = await stack.models.ApiKey.findOne({ where: { account_id: account.accountId, name: 'Ops' }, rejectOnEmpty: true });
    const edit = await browser.get(`/v2/console/keys/${row.id}`);
    expect(edit.status).to.equal(200);
    expect(await edit.text()).to.include('value="Ops"').and.include('<option value="view" selected>view</option>');
    expect((await browser.post(`/v2/console/keys/${row.id}`, { _csrf: 'nope', name: 'X' })).status).to.equal(403);
    const saved = await browser.post(`/v2/console/keys/${row.id}`, { _csrf: csrf, name: 'Ops 2', ...scoped({ widgets: 'manage', ecards: 'view' }) });
    expect(saved.status).to.equal(303);
    expect(saved.headers.get('location')).to.equal('/v2/console/keys?done=updated');
    expect(await (await browser.get('/v2/console/keys?done=updated')).text()).to.include('The key was saved.');
    await row.reload();
    expect(row.name).to.equal('Ops 2');
    expect(row.permissions).to.include({ widgets: 'manage', ecards: 'view', sends: 'none' });
    const rotated = await browser.post(`/v2/console/keys/${row.id}/rotate`, { _csrf: csrf, grace_seconds: '3600' });
    const page = await rotated.text();
    expect(rotated.status, page).to.equal(200);
    const key = /id="secret"[^>]*value="(csk_live_[0-9A-Za-z]+)"/.exec(page)?.[1];
    expect(key).to.be.a('string');
    expect(page).to.include('The key was rotated').and.include('works until');
    await row.reload();
    expect(row.revoked_at!.getTime()).to.be.greaterThan(Date.now() + 3_000_000);
    expect(await (await browser.get('/v2/console/keys')).text()).to.match(/rotating \(until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)/);
    const fresh = await stack.models.ApiKey.findOne({ where: { account_id: account.accountId, name: 'Ops 2', revoked_at: null }, rejectOnEmpty: true });
    const revoked = await browser.post(`/v2/console/keys/${fresh.id}/revoke`, { _csrf: csrf });
    expect(revoked.status).to.equal(303);
    expect(revoked.headers.get('location')).to.equal('/v2/console/keys?done=revoked');
    expect(await (await browser.get('/v2/console/keys?done=revoked')).text()).to.include('The key was revoked.').and.include('revoked');
    expect((await call(stack.url, 'GET', '/v2/api/key/info', { key: key! })).status).to.equal(401);
    expect((await browser.get(`/v2/console/keys/${fresh.id}`)).status).to.equal(409);
  });

  it('a key with manage on webhooks (create or raise to) needs step-up, which comes back to the form', async () => {
    const pages = await signedIn();
    const { account, browser, csrf } = pages;
    const asked = await browser.post('/v2/console/keys', { _csrf: csrf, name: 'Hooks', ...scoped({ webhooks: 'manage' }) });
    expect(asked.status).to.equal(303);
    expect(asked.headers.get('location')).to.equal(`/v2/console/step-up?next=${encodeURIComponent('/v2/console/keys/new?name=Hooks')}`);
    expect(await stack.models.ApiKey.count({ where: { account_id: account.accountId, name: 'Hooks' } })).to.equal(0);
    expect((await browser.post('/v2/console/keys', { _csrf: csrf, name: 'Reader', ...scoped({ webhooks: 'view' }) })).status).to.equal(200);
    const reader = await stack.models.ApiKey.findOne({ where: { account_id: account.accountId, name: 'Reader' }, rejectOnEmpty: true });
    const raise = await browser.post(`/v2/console/keys/${reader.id}`, { _csrf: csrf, name: 'Reader', ...scoped({ webhooks: 'manage' }) });
    expect(raise.headers.get('location')).to.equal(`/v2/console/step-up?next=${encodeURIComponent(`/v2/console/keys/${reader.id}`)}`);
    expect((await reader.reload()).permissions.webhooks).to.equal('view');
    await stepUp(pages, `/v2/console/keys/${reader.id}`);
    expect((await browser.post(`/v2/console/keys/${reader.id}`, { _csrf: csrf, name: 'Reader', ...scoped({ webhooks: 'manage' }) })).status).to.equal(303);
    expect((await reader.reload()).permissions.webhooks).to.equal('manage');
  });

  it('a full-access key (create or rotate) needs step-up, which comes back to the form', async () => {
    const pages = await signedIn();
    const { account, browser, csrf } = pages;
    const asked = await browser.post('/v2/console/keys', { _csrf: csrf, name: 'Root', access: 'full' });
    expect(asked.status).to.equal(303);
    expect(asked.headers.get('location')).to.equal(`/v2/console/step-up?next=${encodeURIComponent('/v2/console/keys/new?access=full&name=Root')}`);
    expect(await stack.models.ApiKey.count({ where: { account_id: account.accountId, name: 'Root' } })).to.equal(0);
    const live = await stack.models.ApiKey.findOne({ where: { account_id: account.accountId, full_access: true }, rejectOnEmpty: true });
    const rotate = await browser.post(`/v2/console/keys/${live.id}/rotate`, { _csrf: csrf, grace_seconds: '0' });
    expect(rotate.status).to.equal(303);
    expect(rotate.headers.get('location')).to.equal(`/v2/console/step-up?next=${encodeURIComponent(`/v2/console/keys/${live.id}`)}`);
    await stepUp(pages, '/v2/console/keys/new?access=full&name=Root');
    const back = await (await browser.get('/v2/console/keys/new?access=full&name=Root')).text();
    expect(back).to.include('value="Root"').and.include('value="full" checked');
    const created = await browser.post('/v2/console/keys', { _csrf: csrf, name: 'Root', access: 'full' });
    expect(created.status).to.equal(200);
    expect((await stack.models.ApiKey.findOne({ where: { account_id: account.accountId, name: 'Root' }, rejectOnEmpty: true })).full_access).to.equal(true);
    const rotated = await browser.post(`/v2/console/keys/${live.id}/rotate`, { _csrf: csrf, grace_seconds: '0' });
    expect(rotated.status).to.equal(200);
  });

  it('keys: no session → sign-in; another account\'s key → 404 page; bad input → 400 page', async () => {
    const { browser, csrf } = await signedIn();
    const other = await newAccount(stack.models);
    const foreign = await stack.models.ApiKey.findOne({ where: { account_id: other.accountId }, rejectOnEmpty: true });
    const none = await fetch(`${stack.url}/v2/console/keys`, { redirect: 'manual' });
    expect(none.status).to.equal(303);
    expect(none.headers.get('location')).to.equal('/v2/console/sign-in?next=%2Fv2%2Fconsole%2Fkeys');
    const missing = await browser.get(`/v2/console/keys/${foreign.id}`);
    expect(missing.status).to.equal(404);
    expect(await missing.text()).to.include('Something went wrong');
    expect((await browser.post(`/v2/console/keys/${foreign.id}/revoke`, { _csrf: csrf })).status).to.equal(404);
    expect((await browser.post(`/v2/console/keys/${foreign.id}/rotate`, { _csrf: csrf, grace_seconds: '0' })).status).to.equal(404);
    expect((await browser.post(`/v2/console/keys/${foreign.id}`, { _csrf: csrf, name: 'x' })).status).to.equal(404);
    expect(foreign.revoked_at).to.equal(null);
    await foreign.reload();
    expect(foreign.revoked_at).to.equal(null);
    expect((await browser.post('/v2/console/keys', { _csrf: csrf, name: 'x', access: 'scoped', perm_widgets: 'owner' })).status).to.equal(400);
    expect((await browser.post(`/v2/console/keys/${foreign.id}/rotate`, { _csrf: csrf, grace_seconds: '-1' })).status).to.equal(400);
  });

  it('a scoped key cannot be kept as full access on its edit page → 422 page, the key unchanged', async () => {
    const { account, browser, csrf } = await signedIn();
    expect((await browser.post('/v2/console/keys', { _csrf: csrf, name: 'Scoped', access: 'scoped', ...scoped({ widgets: 'view' }) })).status).to.equal(200);
    const row = await stack.models.ApiKey.findOne({ where: { account_id: account.accountId, name: 'Scoped' }, rejectOnEmpty: true });
    const refused = await browser.post(`/v2/console/keys/${row.id}`, { _csrf: csrf, name: 'Root now', access: 'full' });
    expect(refused.status).to.equal(422);
    expect(await refused.text()).to.include('A scoped key cannot become full access');
    await row.reload();
    expect([row.name, row.full_access]).to.deep.equal(['Scoped', false]);
  });

  it('issues confirmation tokens shown once; widget_delete needs step-up; another account\'s resource → 404', async () => {
    const pages = await signedIn();
    const { account, browser, csrf } = pages;
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const form = await browser.get('/v2/console/tokens');
    expect(form.status).to.equal(200);
    expect(await form.text()).to.include('<label for="purpose">Purpose</label>').and.include('<label for="resource_id">Resource id</label>');
    expect((await browser.post('/v2/console/tokens', { purpose: 'ecard_delete_in_use', resource_id: String(ecard.id) })).status).to.equal(403);
    const plain = await browser.post('/v2/console/tokens', { _csrf: csrf, purpose: 'ecard_delete_in_use', resource_id: String(ecard.id) });
    const plainPage = await plain.text();
    expect(plain.status, plainPage).to.equal(200);
    expect(plain.headers.get('cache-control')).to.equal('no-store');
    expect(hidden(plainPage, '_csrf')).to.equal(csrf);
    expect(/id="token"[^>]*value="([^"]+)"/.exec(plainPage)?.[1]).to.be.a('string');
    expect(await stack.models.ConfirmationToken.count({ where: { account_id: account.accountId, purpose: 'ecard_delete_in_use' } })).to.equal(1);
    const asked = await browser.post('/v2/console/tokens', { _csrf: csrf, purpose: 'widget_delete', resource_id: String(widget.id) });
    expect(asked.status).to.equal(303);
    const back = `/v2/console/tokens?purpose=widget_delete&resource_id=${widget.id}`;
    expect(asked.headers.get('location')).to.equal(`/v2/console/step-up?next=${encodeURIComponent(back)}`);
    await stepUp(pages, back);
    expect(await (await browser.get(back)).text()).to.include('<option value="widget_delete" selected>').and.include(`value="${widget.id}"`);
    const issued = await browser.post('/v2/console/tokens', { _csrf: csrf, purpose: 'widget_delete', resource_id: String(widget.id) });
    expect(issued.status).to.equal(200);
    expect(await issued.text()).to.include('widget_delete').and.include(`id ${widget.id}`);
    const other = await newAccount(stack.models);
    const foreign = await insertWidget(stack.models, other.accountId);
    expect((await browser.post('/v2/console/tokens', { _csrf: csrf, purpose: 'widget_delete', resource_id: String(foreign.id) })).status).to.equal(404);
    expect((await browser.post('/v2/console/tokens', { _csrf: csrf, purpose: 'widget_delete', resource_id: '' })).status).to.equal(422);
    expect((await browser.post('/v2/console/tokens', { _csrf: csrf, purpose: 'nothing', resource_id: '1' })).status).to.equal(400);
    expect((await fetch(`${stack.url}/v2/console/tokens`, { redirect: 'manual' })).status).to.equal(303);
  });

  it('deletes a campaign and an automation on their confirmation pages; another account\'s → 404', async () => {
    const { account, browser, csrf } = await signedIn('pro');
    const saved = expectSuccess(await call(stack.url, 'POST', '/v2/api/campaign/save', { key: account.liveKey, body: { campaign: { campaign_name: 'Spring <news>', from_name: 'HR', from_email: 'hr@example.com' } } })) as { id: number };
    const confirm = await browser.get(`/v2/console/campaigns/${saved.id}/delete`);
    const page = await confirm.text();
    expect(confirm.status).to.equal(200);
    expect(page).to.include('Spring &lt;news&gt;').and.include('draft').and.include('Delete the campaign</button>');
    expect((await browser.post(`/v2/console/campaigns/${saved.id}/delete`, {})).status).to.equal(403);
    const deleted = await browser.post(`/v2/console/campaigns/${saved.id}/delete`, { _csrf: csrf });
    expect(deleted.status).to.equal(303);
    expect(deleted.headers.get('location')).to.equal(`/v2/console/campaigns/${saved.id}/deleted`);
    expect(await (await browser.get(`/v2/console/campaigns/${saved.id}/deleted`)).text()).to.include(`The campaign ${saved.id} was deleted.`);
    expect(await stack.models.Campaign.count({ where: { id: saved.id } })).to.equal(0);
    expect((await browser.get(`/v2/console/campaigns/${saved.id}/delete`)).status).to.equal(404);

    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const automation = await insertAutomation(stack.models, account.accountId, firingZone(), ecard.id, { enabled: false });
    const confirmAutomation = await (await browser.get(`/v2/console/automations/${automation.id}/delete`)).text();
    expect(confirmAutomation).to.include('Birthdays').and.include('disabled');
    expect((await browser.post(`/v2/console/automations/${automation.id}/delete`, { _csrf: csrf })).status).to.equal(303);
    expect(await stack.models.Automation.count({ where: { id: automation.id } })).to.equal(0);

    const other = await newAccount(stack.models);
    const foreignWidget = await insertWidget(stack.models, other.accountId);
    const foreign = await insertAutomation(stack.models, other.accountId, firingZone(), (await insertEcard(stack.models, other.accountId, foreignWidget.id)).id, { enabled: false });
    expect((await browser.get(`/v2/console/automations/${foreign.id}/delete`)).status).to.equal(404);
    expect((await browser.post(`/v2/console/automations/${foreign.id}/delete`, { _csrf: csrf })).status).to.equal(404);
    expect(await stack.models.Automation.count({ where: { id: foreign.id } })).to.equal(1);
    expect((await browser.get('/v2/console/campaigns/abc/delete')).status).to.equal(400);
    const none = await fetch(`${stack.url}/v2/console/automations/${foreign.id}/delete`, { redirect: 'manual' });
    expect(none.status).to.equal(303);
  });
});
