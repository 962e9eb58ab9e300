// The console's eCards list over HTTP: every eCard of the account with its widget and state, the widget filter and
// paging, and the bulk form (one field across the ticked eCards, as the key API's bulkUpdate): a flag and a text,
// a bad value refused (400) and another account's eCard (404), each leaving every eCard as it was.
import { expect } from 'chai';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

interface EcardOut {
  id: number;
  name: string;
  disabled: boolean;
  header: string | null;
  envelope_theme: string;
}

/** The bulk form as a browser posts it: every ticked box one `ecardids` field. */
const bulkBody = (csrf: string, ids: number[], fields: Record<string, string>) => {
  const form = new URLSearchParams({ _csrf: csrf, widgetid: '', keyword: '', page: '', value_flag: 'yes', value_text: '', value_brand: '', value_mode: 'popup_card', value_theme: 'classic', ...fields });
  for (const id of ids) form.append('ecardids', String(id));
  return form.toString();
};

describe('console pages: the eCards list and bulk update', function () {
  this.timeout(30_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const post = (cookie: string, body: string, origin = stack.url) =>
    fetch(`${stack.url}/v2/console/ecards/bulk`, { method: 'POST', headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  const cookieOf = (browser: { cookies: Map<string, string> }) => [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const ecardOf = async (key: string, id: number) => expectSuccess(await call(stack.url, 'GET', `/v2/api/ecard/findOne/id/${id}`, { key })) as EcardOut;

  it('lists every eCard with its widget, state and editor link; filters by widget and by name; pages by 24', async () => {
    const { account, browser } = await ownerOnPages(stack);
    const red = await insertWidget(stack.models, account.accountId, { name: 'Red widget' });
    const blue = await insertWidget(stack.models, account.accountId, { name: 'Blue widget' });
    const hidden = await insertEcard(stack.models, account.accountId, red.id, { name: 'Hidden card' });
    await hidden.update({ disabled: true });
    const birthday = await insertEcard(stack.models, account.accountId, blue.id, { name: 'Birthday card' });
    const html = await (await browser.get('/v2/console/ecards')).text();
    expect(html).to.include(`href="/v2/console/ecards/${hidden.id}"`).and.include(`href="/v2/console/ecards/${birthday.id}"`);
    expect(html).to.include('Hidden</span>').and.include('Published</span>');
    expect(html).to.include(`href="/v2/console/ecards/new?widgetid=${red.id}"`).and.include(`href="/v2/console/ecards/new?widgetid=${blue.id}"`);
    const onlyBlue = await (await browser.get(`/v2/console/ecards?widgetid=${blue.id}`)).text();
    expect(onlyBlue).to.include('Birthday card').and.not.include('Hidden card');
    expect(onlyBlue).to.match(new RegExp(`<option value="${blue.id}" selected>Blue widget</option>`));
    const byName = await (await browser.get('/v2/console/ecards?keyword=birth')).text();
    expect(byName).to.include('Birthday card').and.not.include('Hidden card');

    for (let i = 0; i < 25; i++) await insertEcard(stack.models, account.accountId, red.id, { name: `Paged ${String(i).padStart(2, '0')}` });
    const first = (await (await browser.get(`/v2/console/ecards?widgetid=${red.id}`)).text()).replaceAll('&#x3D;', '=');
    expect(first).to.include('26 eCards in this widget').and.include(`href="/v2/console/ecards?widgetid=${red.id}&amp;page=2"`);
    expect(first.match(/name="ecardids"/g)).to.have.length(24);
    const second = await (await browser.get(`/v2/console/ecards?widgetid=${red.id}&page=2`)).text();
    expect(second.match(/name="ecardids"/g)).to.have.length(2);
    expect(second).to.include('Paged 24').and.not.include('Paged 00');

    const other = await newAccount(stack.models);
    const theirs = await insertWidget(stack.models, other.accountId);
    expect((await browser.get(`/v2/console/ecards?widgetid=${theirs.id}`)).status).to.equal(404);
  });

  it('bulk: sets disabled, then a text field, on the ticked eCards only, and says how many', async () => {
    const { account, browser, csrf } = await ownerOnPages(stack);
    const widget = await insertWidget(stack.models, account.accountId);
    const [a, b, c] = [await insertEcard(stack.models, account.accountId, widget.id, { name: 'A' }), await insertEcard(stack.models, account.accountId, widget.id, { name: 'B' }), await insertEcard(stack.models, account.accountId, widget.id, { name: 'C' })];
    const hide = await post(cookieOf(browser), bulkBody(csrf, [a.id, b.id], { fieldName: 'disabled', value_flag: 'yes', widgetid: String(widget.id) }));
    expect(hide.status).to.equal(303);
    expect(hide.headers.get('location')).to.equal(`/v2/console/ecards?widgetid=${widget.id}&done=updated&n=2`);
    expect((await (await browser.get(hide.headers.get('location')!)).text())).to.include('Updated 2 eCards.');
    expect((await ecardOf(account.liveKey, a.id)).disabled).to.equal(true);
    expect((await ecardOf(account.liveKey, b.id)).disabled).to.equal(true);
    expect((await ecardOf(account.liveKey, c.id)).disabled).to.equal(false);

    const header = await post(cookieOf(browser), bulkBody(csrf, [b.id, c.id], { fieldName: 'header', value_text: 'Season’s greetings', value_flag: 'no' }));
    expect(header.status).to.equal(303);
    expect((await ecardOf(account.liveKey, a.id)).header).to.equal('Happy day');
    expect((await ecardOf(account.liveKey, b.id)).header).to.equal('Season’s greetings');
    expect((await ecardOf(account.liveKey, c.id)).header).to.equal('Season’s greetings');
    // A choice field from its own control.
    expect((await post(cookieOf(browser), bulkBody(csrf, [a.id], { fieldName: 'envelope_theme', value_theme: 'night' }))).status).to.equal(303);
    expect((await ecardOf(account.liveKey, a.id)).envelope_theme).to.equal('night');
  });

  it('bulk: a bad value is 400 with the reason, nothing ticked is 422, another account’s eCard is 404, a missing token 403; nothing changes', async () => {
    const { account, browser, csrf } = await ownerOnPages(stack);
    const widget = await insertWidget(stack.models, account.accountId);
    const mine = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Mine' });
    const other = await newAccount(stack.models);
    const theirs = await insertEcard(stack.models, other.accountId, (await insertWidget(stack.models, other.accountId)).id, { name: 'Theirs' });
    const before = [await ecardOf(account.liveKey, mine.id), await ecardOf(other.liveKey, theirs.id)];

    const badUrl = await post(cookieOf(browser), bulkBody(csrf, [mine.id], { fieldName: 'ecardLink', value_text: 'not a url' }));
    expect(badUrl.status).to.equal(400);
    const page = await badUrl.text();
    expect(page).to.include('Call-to-action link:').and.include('value="not a url"').and.match(new RegExp(`name="ecardids" value="${mine.id}" checked`));
    const badColours = await post(cookieOf(browser), bulkBody(csrf, [mine.id], { fieldName: 'envelope_color_settings', value_text: '{"card":"nonsense-colour"}' }));
    expect(badColours.status).to.equal(400);
    const noName = await post(cookieOf(browser), bulkBody(csrf, [mine.id], { fieldName: 'name', value_text: '' }));
    expect(noName.status).to.equal(422);
    const none = await post(cookieOf(browser), bulkBody(csrf, [], { fieldName: 'disabled' }));
    expect(none.status).to.equal(422);
    expect(await none.text()).to.include('Select at least one eCard');
    const foreign = await post(cookieOf(browser), bulkBody(csrf, [mine.id, theirs.id], { fieldName: 'disabled', value_flag: 'yes' }));
    expect(foreign.status).to.equal(404);
    const noToken = await post(cookieOf(browser), bulkBody('', [mine.id], { fieldName: 'disabled', value_flag: 'yes' }));
    expect(noToken.status).to.equal(403);
    const elsewhere = await post(cookieOf(browser), bulkBody(csrf, [mine.id], { fieldName: 'disabled', value_flag: 'yes' }), 'https://evil.example');
    expect(elsewhere.status).to.equal(403);
    expect([await ecardOf(account.liveKey, mine.id), await ecardOf(other.liveKey, theirs.id)]).to.deep.equal(before);
  });
});
