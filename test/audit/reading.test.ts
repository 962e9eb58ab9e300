// Reading the audit log in the console: newest first, each filter, paging by before_id, refusals (bad filters 400,
// another account's ids 404, a role without `audit: view` 403), the page and its CSV (BOM, formula cells defused,
// the export itself audited).
import { expect } from 'chai';
import { expectFailure, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { signedInConsole, signedInMember, type ConsoleClient } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Item = { id: number; action: string; outcome: string; actor: { type: string; label: string; key_id: number | null }; target: { type: string | null; id: string | null } };
type Meta = { next_before_id: number | null; has_more: boolean; retention_days: number };

describe('audit log: reading it in the console', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let owner: ConsoleClient;
  let keyId: number;

  const list = async (query = '') => {
    const res = await owner.call('GET', `/audit/events${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { items: res.body.data as Item[], meta: res.body.meta as Meta };
  };
  const row = (action: string, extra: Record<string, unknown> = {}) =>
    stack.models.AuditEvent.create({
      account_id: account.accountId, occurred_at: new Date(), actor_type: 'api_key', actor_user_id: null, actor_key_id: keyId, actor_label: 'CI (csk_live_…abcd)',
      action, target_type: action.split('.')[0] ?? null, target_id: '7', outcome: 'success', ip: '203.0.113.9', user_agent: 'curl/8', request_id: 'req-1', surface: 'api', details: null, ...extra,
    });

  before(async () => {
    stack = await testStack();
    ({ account, client: owner } = await signedInConsole(stack, { plan: 'pro' }));
    // The reads below are of the seven rows made here; the sign-in's own row is tested in test/audit/sign-in.test.ts.
    await stack.models.AuditEvent.destroy({ where: { account_id: account.accountId, action: 'session.sign_in' } });
    keyId = (await newKey(stack.models, account.accountId, { widgets: 'manage' })).keyId;
    for (let i = 0; i < 5; i++) await row('widgets.save');
    await row('widgets.delete', { outcome: 'denied', action: 'access.denied', target_type: null, target_id: null, details: JSON.stringify({ method: 'POST', route: '/v2/api/widget/deleteWidgets', required: 'widgets:write' }) });
    await row('keys.create', { actor_type: 'user', actor_key_id: null, actor_label: '=HYPERLINK("http://evil")', surface: 'console' });
  });

  it('answers the newest first with the retention and no further page', async () => {
    const { items, meta } = await list();
    expect(items.map((i) => i.action)).to.deep.equal(['keys.create', 'access.denied', 'widgets.save', 'widgets.save', 'widgets.save', 'widgets.save', 'widgets.save']);
    expect(meta).to.deep.equal({ next_before_id: null, has_more: false, retention_days: 365 });
    expect(items[1]).to.deep.include({ outcome: 'denied', actor: { type: 'api_key', user_id: null, key_id: keyId, label: 'CI (csk_live_…abcd)' } });
  });

  it('pages by before_id without repeating a row', async () => {
    const first = await list('?perPage=3');
    expect(first.meta.has_more).to.equal(true);
    const second = await list(`?perPage=3&before_id=${first.meta.next_before_id}`);
    const third = await list(`?perPage=3&before_id=${second.meta.next_before_id}`);
    const ids = [...first.items, ...second.items, ...third.items].map((i) => i.id);
    expect(new Set(ids).size).to.equal(7);
    expect(third.meta).to.include({ has_more: false, next_before_id: null });
  });

  it('filters by action (exact or area.*), outcome, actor, target and time', async () => {
    expect((await list('?action=widgets.*')).items).to.have.length(5);
    expect((await list('?action=keys.create')).items.map((i) => i.action)).to.deep.equal(['keys.create']);
    expect((await list('?outcome=denied')).items.map((i) => i.action)).to.deep.equal(['access.denied']);
    expect((await list('?actor_type=user')).items).to.have.length(1);
    expect((await list(`?actor_key_id=${keyId}`)).items).to.have.length(6);
    expect((await list('?target_type=widgets&target_id=7')).items).to.have.length(5);
    expect((await list('?dateTo=2020-01-01T00:00:00Z')).items).to.have.length(0);
    expect((await list(`?dateFrom=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString().replace('Z', '+00:00'))}`)).items).to.have.length(7);
  });

  it('refuses bad filters with 400 and another account’s key or person with 404', async () => {
    expectFailure(await owner.call('GET', '/audit/events?action=widgets'), 400, 'invalid_parameter');
    expectFailure(await owner.call('GET', '/audit/events?perPage=201'), 400, 'invalid_parameter');
    expectFailure(await owner.call('GET', '/audit/events?dateFrom=2026-12-01'), 400, 'invalid_parameter');
    expectFailure(await owner.call('GET', '/audit/events?outcome=maybe'), 400, 'invalid_parameter');
    const other = await newAccount(stack.models);
    expectFailure(await owner.call('GET', `/audit/events?actor_key_id=${other.liveKeyId}`), 404, 'key_not_found');
    const stranger = await signedInMember(stack, other, 'admin');
    expectFailure(await owner.call('GET', `/audit/events?actor_user_id=${stranger.user.id}`), 404, 'not_found');
  });

  it('is closed to a role without audit: view', async () => {
    const viewer = await signedInMember(stack, account, 'viewer');
    const res = await viewer.client.call('GET', '/audit/events');
    expect(res.status).to.equal(403);
    expect(res.body).to.include({ code: 'role_forbidden', required: 'audit: view' });
    const admin = await signedInMember(stack, account, 'admin');
    expect((await admin.client.call('GET', '/audit/events')).status).to.equal(200);
  });

  it('the page lists the rows, filters them, and refuses a bad filter beside its field', async () => {
    const admin = await signedInMember(stack, account, 'admin');
    const all = await (await admin.browser.get('/v2/console/settings/audit')).text();
    expect(all).to.include('<code>keys.create</code>');
    expect(all).to.include('Refused');
    const filtered = await (await admin.browser.get('/v2/console/settings/audit?outcome=denied')).text();
    expect(filtered).to.include('<code>access.denied</code>');
    expect(filtered).to.not.include('<code>widgets.save</code>');
    const bad = await admin.browser.get('/v2/console/settings/audit?from=yesterday');
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.include('A day as YYYY-MM-DD.');
  });

  it('the CSV has the BOM, the columns, formula cells defused, and the export is itself audited', async () => {
    const admin = await signedInMember(stack, account, 'admin');
    const res = await admin.browser.get('/v2/console/settings/audit/export.csv?action=keys.*');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split('\r\n');
    expect(lines[0]).to.equal('occurred_at,actor_type,actor,action,target_type,target_id,outcome,ip,user_agent,request_id,details');
    expect(lines[1]).to.include(`,user,"'=HYPERLINK(""http://evil"")",keys.create,keys,7,success,`);
    const exported = await stack.models.AuditEvent.findOne({ where: { account_id: account.accountId, action: 'audit.export', actor_user_id: admin.user.id } });
    expect(exported).to.not.equal(null);
  });
});
