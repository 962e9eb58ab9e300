// The console's directory pages over HTTP, without JavaScript: add, edit (standard and custom fields), deactivate,
// reactivate and erase (through its confirmation page) a member; a bad field re-renders the form with the message
// beside it and writes nothing; CSRF; another account's member → 404; search by prefix and cursor paging; the
// departments page. Results are read back through the key API and the member events it would fire.
import { expect } from 'chai';
import { addCustomField } from '../../services/directory/custom-fields.ts';
import { call, expectSuccess } from '../helpers/api.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

interface MemberOut {
  id: number;
  email: string;
  employee_id: string | null;
  first_name: string | null;
  last_name: string | null;
  departments: string[];
  hire_date: string | null;
  custom_fields: Record<string, string>;
  disabled: 0 | 1;
}

/** Every editor field, blank unless given (as a browser posts the whole form). */
const memberForm = (fields: Record<string, string>) => ({
  email: '', first_name: '', last_name: '', employee_id: '', job_position: '', departments: '', manager_email: '', hire_date: '', date_of_birth: '', profile_image_url: '', timezone: '',
  ...fields,
});

describe('console pages: directory', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof ownerOnPages>>;
  before(async function () {
    // A fresh database's migrations take a while on a busy machine.
    this.timeout(120_000);
    stack = await testStack();
    owner = await ownerOnPages(stack);
    await addCustomField(stack, { accountId: owner.account.accountId, key: 'anniversary', label: 'Work anniversary', required: false });
  });

  const find = async (email: string) => expectSuccess(await call(stack.url, 'GET', `/v2/api/pub/team-member-actions/find?email=${encodeURIComponent(email)}`, { key: owner.account.liveKey })) as MemberOut | Record<string, never>;
  const eventsOf = async (memberId: number) =>
    (await stack.models.OutboxEvent.findAll({ where: { account_id: owner.account.accountId, member_id: memberId }, order: [['id', 'ASC']] })).map((e) => ({ type: e.event_type, source: e.source }));
  const idOf = (location: string | null) => Number(/members\/(\d+)/.exec(location ?? '')![1]);

  it('adds a member, edits standard and custom fields, deactivates, reactivates; events as the key API fires them, from "ui"', async () => {
    const { browser, csrf } = owner;
    const empty = await (await browser.get('/v2/console/directory/members/new')).text();
    for (const name of ['email', 'first_name', 'last_name', 'employee_id', 'departments', 'hire_date', 'custom_fields.anniversary']) expect(empty, name).to.include(`name="${name}"`);

    const made = await browser.post('/v2/console/directory/members', { _csrf: csrf, ...memberForm({ email: ' Ada@Example.com ', first_name: 'Ada', last_name: 'Lovelace', employee_id: 'E-1', departments: 'Engineering, research', hire_date: '2020-02-03' }) });
    expect(made.status, await made.clone().text()).to.equal(303);
    expect(made.headers.get('location')).to.match(/^\/v2\/console\/directory\/members\/\d+\?done=created$/);
    const id = idOf(made.headers.get('location'));
    expect(await find('ada@example.com')).to.deep.include({ id, first_name: 'Ada', last_name: 'Lovelace', employee_id: 'E-1', departments: ['Engineering', 'research'], hire_date: '2020-02-03', disabled: 0 });

    const editor = await (await browser.get(made.headers.get('location')!)).text();
    expect(editor).to.include('The member is added.').and.include('value="ada@example.com"').and.include('value="Engineering, research"');

    // The email itself changes (the editor saves by id), a custom date is set, a department dropped.
    const edited = await browser.post(`/v2/console/directory/members/${id}`, { _csrf: csrf, ...memberForm({ email: 'ada.l@example.com', first_name: 'Ada', last_name: 'Lovelace', employee_id: 'E-1', departments: 'Engineering', hire_date: '2020-02-03', 'custom_fields.anniversary': '2021-02-03' }) });
    expect(edited.status).to.equal(303);
    expect(edited.headers.get('location')).to.equal(`/v2/console/directory/members/${id}?done=saved`);
    expect(await find('ada@example.com')).to.deep.equal({});
    expect(await find('ada.l@example.com')).to.deep.include({ id, departments: ['Engineering'], custom_fields: { anniversary: '2021-02-03' } });

    expect((await browser.post(`/v2/console/directory/members/${id}/deactivate`, { _csrf: csrf })).headers.get('location')).to.equal(`/v2/console/directory/members/${id}?done=deactivated`);
    expect(await find('ada.l@example.com')).to.deep.include({ disabled: 1 });
    expect(await (await browser.get(`/v2/console/directory/members/${id}`)).text()).to.include('Reactivate');
    // Repeating changes nothing and fires nothing.
    expect((await browser.post(`/v2/console/directory/members/${id}/deactivate`, { _csrf: csrf })).headers.get('location')).to.include('done=already-deactivated');
    expect((await browser.post(`/v2/console/directory/members/${id}/reactivate`, { _csrf: csrf })).headers.get('location')).to.include('done=reactivated');
    expect(await find('ada.l@example.com')).to.deep.include({ disabled: 0 });

    expect(await eventsOf(id)).to.deep.equal([
      { type: 'team_member_created', source: 'ui' },
      { type: 'team_member_updated', source: 'ui' },
      { type: 'team_member_deactivated', source: 'ui' },
      { type: 'team_member_updated', source: 'ui' },
    ]);
  });

  it('a bad field shows the form again with the message beside that field (400/422) and writes nothing; CSRF refused', async () => {
    const { browser, csrf } = owner;
    const before = await stack.models.TeamMember.count({ where: { account_id: owner.account.accountId } });
    const bad = await browser.post('/v2/console/directory/members', { _csrf: csrf, ...memberForm({ email: 'not-an-email', first_name: 'Typed', hire_date: '2020-13-45' }) });
    expect(bad.status).to.equal(400);
    const html = await bad.text();
    expect(html).to.match(/name="email" type="email" value="not-an-email"[^>]*aria-invalid="true"/);
    expect(html).to.match(/id="member-field-0-error">Expected an email address</);
    expect(html).to.match(/id="member-field-7-error">Expected a date YYYY-MM-DD</);
    expect(html).to.include('value="Typed"');

    const noEmail = await browser.post('/v2/console/directory/members', { _csrf: csrf, ...memberForm({ first_name: 'Nobody' }) });
    expect(noEmail.status).to.equal(422);
    expect(await noEmail.text()).to.match(/id="member-field-0-error">Required\.</);

    // Another member's email: the directory's conflict, beside the email.
    await browser.post('/v2/console/directory/members', { _csrf: csrf, ...memberForm({ email: 'taken@example.com' }) });
    const count = await stack.models.TeamMember.count({ where: { account_id: owner.account.accountId } });
    const clash = await browser.post('/v2/console/directory/members', { _csrf: csrf, ...memberForm({ email: 'other@example.com', employee_id: 'E-1' }) });
    expect(clash.status).to.equal(422);
    expect(await clash.text()).to.match(/id="member-field-3-error">Another member of this account already has &quot;E-1&quot;</);

    const forged = await browser.post('/v2/console/directory/members', { _csrf: 'wrong', ...memberForm({ email: 'forged@example.com' }) });
    expect(forged.status).to.equal(403);
    const foreignOrigin = await browser.post('/v2/console/directory/members', { _csrf: csrf, ...memberForm({ email: 'forged@example.com' }) }, 'https://evil.example');
    expect(foreignOrigin.status).to.equal(403);
    expect(await stack.models.TeamMember.count({ where: { account_id: owner.account.accountId } })).to.equal(count);
    expect(count).to.equal(before + 1);
  });

  it('the time zone: a picker with a "none" first, saved and cleared through the editor, shown in the members table; a bad zone is refused beside it', async () => {
    const { browser, csrf } = owner;
    const made = await browser.post('/v2/console/directory/members', { _csrf: csrf, ...memberForm({ email: 'kenji@example.com', first_name: 'Kenji', timezone: 'Asia/Tokyo' }) });
    expect(made.status).to.equal(303);
    const id = idOf(made.headers.get('location'));
    expect(await find('kenji@example.com')).to.have.property('timezone', 'Asia/Tokyo');
    const editor = await (await browser.get(`/v2/console/directory/members/${id}`)).text();
    expect(editor).to.match(/<select id="member-field-\d+" name="timezone"[^>]*>\s*<option value="">None \(the account’s default\)<\/option>/);
    expect(editor).to.include('<option value="Asia/Tokyo" selected>Asia/Tokyo</option>');
    const table = await (await browser.get('/v2/console/directory/members?q=kenji')).text();
    expect(table).to.include('<th scope="col">Time zone</th>').and.match(/<td>Asia\/Tokyo<\/td>/);
    // A column no member on the page uses is left out (kenji has no employee id), Status always shown.
    expect(table).to.include('<th scope="col">Status</th>').and.not.include('<th scope="col">Employee ID</th>');

    const bad = await browser.post(`/v2/console/directory/members/${id}`, { _csrf: csrf, ...memberForm({ email: 'kenji@example.com', first_name: 'Kenji', timezone: 'Asia/Nowhere' }) });
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.match(/id="member-field-\d+-error">Expected an IANA time zone name like Europe\/Berlin</);
    expect(await find('kenji@example.com')).to.have.property('timezone', 'Asia/Tokyo');

    expect((await browser.post(`/v2/console/directory/members/${id}`, { _csrf: csrf, ...memberForm({ email: 'kenji@example.com', first_name: 'Kenji' }) })).headers.get('location')).to.include('done=saved');
    expect(await find('kenji@example.com')).to.have.property('timezone', null);
  });

  it('erases a member through a confirmation naming what goes; the key API no longer finds them', async () => {
    const { browser, csrf } = owner;
    const made = await browser.post('/v2/console/directory/members', { _csrf: csrf, ...memberForm({ email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', employee_id: 'E-9', departments: 'Navy' }) });
    const id = idOf(made.headers.get('location'));
    const confirm = await browser.get(`/v2/console/directory/members/${id}/erase`);
    expect(confirm.status).to.equal(200);
    const html = await confirm.text();
    expect(html).to.include('Grace Hopper').and.include('grace@example.com').and.include('E-9').and.include('Navy').and.include('recipient data').and.include('team_member_deleted');
    expect(await find('grace@example.com')).to.have.property('id', id);

    const erased = await browser.post(`/v2/console/directory/members/${id}/erase`, { _csrf: csrf });
    expect(erased.status).to.equal(303);
    expect(erased.headers.get('location')).to.equal('/v2/console/directory/members?done=erased');
    expect(await find('grace@example.com')).to.deep.equal({});
    expect((await eventsOf(id)).at(-1)).to.deep.equal({ type: 'team_member_deleted', source: 'ui' });
    expect((await browser.get(`/v2/console/directory/members/${id}`)).status).to.equal(404);
  });

  it('another account’s member is a 404 on every member page and nothing changes', async () => {
    const other = await ownerOnPages(stack);
    const theirs = expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: other.account.liveKey, body: { email: 'theirs@example.com', first_name: 'Theirs' } })) as { member: MemberOut };
    const id = theirs.member.id;
    const { browser, csrf } = owner;
    for (const path of [`/v2/console/directory/members/${id}`, `/v2/console/directory/members/${id}/erase`]) expect((await browser.get(path)).status, path).to.equal(404);
    for (const path of [`/v2/console/directory/members/${id}`, `/v2/console/directory/members/${id}/deactivate`, `/v2/console/directory/members/${id}/reactivate`, `/v2/console/directory/members/${id}/erase`]) {
      expect((await browser.post(path, { _csrf: csrf, ...memberForm({ email: 'hijack@example.com' }) })).status, path).to.equal(404);
    }
    const still = expectSuccess(await call(stack.url, 'GET', '/v2/api/pub/team-member-actions/find?email=theirs@example.com', { key: other.account.liveKey })) as MemberOut;
    expect(still).to.deep.include({ id, first_name: 'Theirs', disabled: 0 });
  });

  it('search by email or name prefix, status and department filters, cursor paging; a bad filter shows its reason (400), a foreign department 404; departments with counts', async () => {
    const pages = await ownerOnPages(stack);
    const key = pages.account.liveKey;
    const people = [['Ann', 'Archer', 'Sales'], ['Anna', 'Bell', 'Sales'], ['Annie', 'Cole', 'Ops'], ['Bob', 'Annan', 'Ops'], ['Carl', 'Dunn', '']];
    for (const [first, last, dept] of people) {
      expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key, body: { email: `${first!.toLowerCase()}@example.com`, first_name: first, last_name: last, departments: dept ? [dept] : [] } }));
    }
    expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/deactivate', { key, body: { email: 'annie@example.com' } }));
    const names = (html: string) => [...html.matchAll(/<th scope="row"><a href="\/v2\/console\/directory\/members\/\d+">([^<]+)<\/a>/g)].map((m) => m[1]);
    const get = async (path: string) => (await pages.browser.get(path)).text();

    expect(names(await get('/v2/console/directory/members'))).to.deep.equal(['Ann Archer', 'Anna Bell', 'Bob Annan', 'Carl Dunn']);
    // "ann" is a first-name prefix of Ann and Anna and a last-name prefix of Annan; Annie is deactivated.
    expect(names(await get('/v2/console/directory/members?q=ann'))).to.deep.equal(['Ann Archer', 'Anna Bell', 'Bob Annan']);
    expect(names(await get('/v2/console/directory/members?q=ann&status=all'))).to.deep.equal(['Ann Archer', 'Anna Bell', 'Annie Cole', 'Bob Annan']);
    expect(names(await get('/v2/console/directory/members?q=carl%40ex'))).to.deep.equal(['Carl Dunn']);
    expect(names(await get('/v2/console/directory/members?q=Anna+B'))).to.deep.equal(['Anna Bell']);
    // A LIKE wildcard is a character like any other.
    expect(names(await get('/v2/console/directory/members?q=%25'))).to.deep.equal([]);

    // Cursor paging: two a page, "Next page" carries the filters and the last id.
    const first = await get('/v2/console/directory/members?status=all&perPage=2');
    expect(names(first)).to.deep.equal(['Ann Archer', 'Anna Bell']);
    const next = /href="([^"]+)" rel="next"/.exec(first)![1]!.replaceAll('&amp;', '&').replaceAll('&#x3D;', '=');
    expect(next).to.match(/status=all&perPage=2&after=\d+$/);
    const second = await get(next);
    expect(names(second)).to.deep.equal(['Annie Cole', 'Bob Annan']);
    expect(second).to.include('First page');
    const third = await get(/href="([^"]+)" rel="next"/.exec(second)![1]!.replaceAll('&amp;', '&').replaceAll('&#x3D;', '='));
    expect(names(third)).to.deep.equal(['Carl Dunn']);
    expect(third).not.to.include('rel="next"');

    const bad = await pages.browser.get('/v2/console/directory/members?status=gone&after=x');
    expect(bad.status).to.equal(400);
    const badHtml = await bad.text();
    expect(badHtml).to.include('id="status-error">Choose active, deactivated or all<');
    expect(badHtml).to.include('The page cursor:');

    const departments = await get('/v2/console/directory/departments');
    expect(departments).to.match(/<th scope="row">Ops<\/th>\s*<td><a href="[^"]+">2 members/).and.match(/<th scope="row">Sales<\/th>\s*<td><a href="[^"]+">2 members/);
    const ops = /<th scope="row">Ops<\/th>\s*<td><a href="([^"]+)"/.exec(departments)![1]!.replaceAll('&amp;', '&').replaceAll('&#x3D;', '=');
    expect(names(await get(ops))).to.deep.equal(['Annie Cole', 'Bob Annan']);
    // Another account's department as a filter: 404, as the key API's id filters.
    const foreign = await stack.models.Department.findOne({ where: { account_id: owner.account.accountId }, rejectOnEmpty: true });
    expect((await pages.browser.get(`/v2/console/directory/members?department=${foreign.id}`)).status).to.equal(404);
  });
});
