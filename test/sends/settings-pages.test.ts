import { expect } from 'chai';

import { ownerOnPages, pageClient } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console pages: custom fields and suppressions', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const signedIn = () => ownerOnPages(stack);
  const fieldsOf = async (accountId: number) =>
    (await stack.models.CustomField.findAll({ where: { account_id: accountId }, order: [['field_key', 'ASC']] })).map((f) => [f.field_key, f.label, Boolean(f.required), Boolean(f.active)]);
  const suppressionsOf = async (accountId: number) =>
    (await stack.models.Suppression.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']] })).map((s) => [s.kind, s.value]);
  const seeOther = (res: Response, done: string) => {
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/v2/console/settings?done=${done}`);
  };

  it('adds and removes custom fields by form (303, notice), the label escaped', async () => {
    const { account, browser, csrf } = await signedIn();
    const empty = await browser.get('/v2/console/settings');
    const html = await empty.text();
    expect(empty.status).to.equal(200);
    expect(html).to.include('No custom fields.').and.include('Nothing is suppressed.').and.include('<label for="field_key">Key (a-z, 0-9, _)</label>');

    seeOther(await browser.post('/v2/console/settings/fields', { _csrf: csrf, key: 'anniversary', label: ' Work <anniversary> ', required: 'on' }), 'field-added');
    seeOther(await browser.post('/v2/console/settings/fields', { _csrf: csrf, key: 'badge_day', label: 'Badge day' }), 'field-added');
    expect(await fieldsOf(account.accountId)).to.deep.equal([['anniversary', 'Work <anniversary>', true, true], ['badge_day', 'Badge day', false, true]]);
    const listed = await (await browser.get('/v2/console/settings?done=field-added')).text();
    expect(listed).to.include('The custom field is added.').and.include('<td><code>anniversary</code></td><td>Work &lt;anniversary&gt;</td><td>date</td><td>yes</td>');
    expect(listed).to.include('action="/v2/console/settings/fields/badge_day/remove"');

    seeOther(await browser.post('/v2/console/settings/fields/anniversary/remove', { _csrf: csrf }), 'field-removed');
    expect(await fieldsOf(account.accountId)).to.deep.equal([['anniversary', 'Work <anniversary>', true, false], ['badge_day', 'Badge day', false, true]]);
    const after = await (await browser.get('/v2/console/settings?done=field-removed')).text();
    expect(after).to.include('The custom field is removed; members keep their values.').and.include('<code>badge_day</code>').and.not.include('<code>anniversary</code>');
  });

  it('blocks and lifts addresses and domains by form (303, notices), paged', async () => {
    const { account, browser, csrf } = await signedIn();
    seeOther(await browser.post('/v2/console/settings/suppressions', { _csrf: csrf, kind: 'email', value: ' Bounce@Example.COM ' }), 'suppressed');
    seeOther(await browser.post('/v2/console/settings/suppressions', { _csrf: csrf, kind: 'email', value: 'bounce@example.com' }), 'already-suppressed');
    seeOther(await browser.post('/v2/console/settings/suppressions', { _csrf: csrf, kind: 'domain', value: 'Spam.example' }), 'suppressed');
    expect(await suppressionsOf(account.accountId)).to.deep.equal([['email', 'bounce@example.com'], ['domain', 'spam.example']]);
    const page = await (await browser.get('/v2/console/settings?done=already-suppressed')).text();
    expect(page).to.include('It was already blocked.').and.include('<td>email</td><td>bounce@example.com</td>').and.include('<td>domain</td><td>spam.example</td>');
    expect(page).to.include('aria-label="Lift the block of spam.example"');
    const paged = await (await browser.get('/v2/console/settings?perPage=1')).text();
    expect(paged).to.include('Page 1 of 2.').and.include('<td>spam.example</td>').and.not.include('<td>bounce@example.com</td>');

    seeOther(await browser.post('/v2/console/settings/suppressions/remove', { _csrf: csrf, kind: 'domain', value: 'spam.example' }), 'lifted');
    seeOther(await browser.post('/v2/console/settings/suppressions/remove', { _csrf: csrf, kind: 'domain', value: 'spam.example' }), 'not-suppressed');
    expect(await (await browser.get('/v2/console/settings?done=lifted')).text()).to.include('The block is lifted.').and.not.include('<td>spam.example</td>');
    expect(await suppressionsOf(account.accountId)).to.deep.equal([['email', 'bounce@example.com']]);
  });

  it('bad input → a 400, 409 or 422 page with nothing written; no _csrf or a foreign Origin → 403', async () => {
    const { account, browser, csrf } = await signedIn();
    seeOther(await browser.post('/v2/console/settings/fields', { _csrf: csrf, key: 'mine', label: 'Mine' }), 'field-added');
    const fields = await fieldsOf(account.accountId);
    const refused = async (res: Response, status: number, text: string) => {
      const html = await res.text();
      expect(res.status, html).to.equal(status);
      expect(html).to.include('Something went wrong').and.include(text);
    };
    await refused(await browser.post('/v2/console/settings/fields', { _csrf: csrf, key: 'Bad Key', label: 'x' }), 400, 'key');
    await refused(await browser.post('/v2/console/settings/fields', { _csrf: csrf, key: 'ok_key', label: '  ' }), 422, 'label is required');
    await refused(await browser.post('/v2/console/settings/fields', { _csrf: csrf, key: '', label: 'x' }), 422, 'key is required');
    await refused(await browser.post('/v2/console/settings/fields', { _csrf: csrf, key: 'mine', label: 'Twice' }), 409, 'mine');
    await refused(await browser.post('/v2/console/settings/suppressions', { _csrf: csrf, kind: 'email', value: 'not-an-email' }), 400, 'not a valid email');
    await refused(await browser.post('/v2/console/settings/suppressions', { _csrf: csrf, kind: 'domain', value: 'no_dots' }), 400, 'not a valid domain');
    // A blank value is the API's empty body: neither an address nor a domain (400, as there).
    await refused(await browser.post('/v2/console/settings/suppressions', { _csrf: csrf, kind: 'email', value: '' }), 400, 'exactly one of email or domain');

    expect((await browser.post('/v2/console/settings/fields', { key: 'sneaky', label: 'Sneaky' })).status).to.equal(403);
    expect((await browser.post('/v2/console/settings/fields', { _csrf: csrf, key: 'sneaky', label: 'Sneaky' }, 'https://evil.example')).status).to.equal(403);
    expect((await browser.post('/v2/console/settings/fields/mine/remove', { _csrf: 'wrong' })).status).to.equal(403);
    expect((await browser.post('/v2/console/settings/suppressions', { kind: 'email', value: 'a@example.com' })).status).to.equal(403);
    expect((await browser.post('/v2/console/settings/suppressions', { _csrf: csrf, kind: 'email', value: 'a@example.com' }, null)).status).to.equal(403);
    expect(await fieldsOf(account.accountId)).to.deep.equal(fields);
    expect(await suppressionsOf(account.accountId)).to.deep.equal([]);
  });

  it('isolation: another account’s field key → 404 and unchanged; its suppressions are not lifted; no session → 303', async () => {
    const { browser, csrf } = await signedIn();
    const other = await signedIn();
    seeOther(await other.browser.post('/v2/console/settings/fields', { _csrf: other.csrf, key: 'theirs', label: 'Theirs' }), 'field-added');
    seeOther(await other.browser.post('/v2/console/settings/suppressions', { _csrf: other.csrf, kind: 'email', value: 'theirs@example.com' }), 'suppressed');
    const missing = await browser.post('/v2/console/settings/fields/theirs/remove', { _csrf: csrf });
    expect(missing.status).to.equal(404);
    expect(await missing.text()).to.include('Something went wrong');
    expect(await fieldsOf(other.account.accountId)).to.deep.equal([['theirs', 'Theirs', false, true]]);
    seeOther(await browser.post('/v2/console/settings/suppressions/remove', { _csrf: csrf, kind: 'email', value: 'theirs@example.com' }), 'not-suppressed');
    expect(await suppressionsOf(other.account.accountId)).to.deep.equal([['email', 'theirs@example.com']]);
    const mine = await (await browser.get('/v2/console/settings')).text();
    expect(mine).to.include('No custom fields.').and.include('Nothing is suppressed.').and.not.include('theirs');

    const anonymous = pageClient(stack.url);
    const page = await anonymous.get('/v2/console/settings');
    expect(page.status).to.equal(303);
    expect(page.headers.get('location')).to.equal('/v2/console/sign-in?next=%2Fv2%2Fconsole%2Fsettings');
    const post = await anonymous.post('/v2/console/settings/fields/theirs/remove', { _csrf: other.csrf });
    expect(post.status).to.equal(303);
    expect(post.headers.get('location')).to.equal('/v2/console/sign-in?next=%2Fv2%2Fconsole%2F');
    expect(await fieldsOf(other.account.accountId)).to.deep.equal([['theirs', 'Theirs', false, true]]);
  });
});
