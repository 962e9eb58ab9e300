import { expect } from 'chai';
import { verifyPassword } from '../../lib/passwords.ts';
import { newAccount } from '../helpers/api.ts';
import { ownerUser, setOwnerPassword, signedInPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console pages: changing the password', function () {
  this.timeout(30_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  it('a wrong current password or a short new one shows the form again with the reason, nothing changed; then the change signs out every session', async () => {
    const account = await newAccount(stack.models);
    const email = await setOwnerPassword(stack.models, account.accountId, 'correct horse battery');
    const one = await signedInPages(stack.url, email, 'correct horse battery');
    const two = await signedInPages(stack.url, email, 'correct horse battery');
    const hashOf = async () => (await ownerUser(stack.models, account.accountId)).password_hash;
    const before = await hashOf();

    const form = await one.browser.get('/v2/console/password');
    expect(form.status).to.equal(200);
    expect(await form.text()).to.include('<label for="current_password">Current password</label>').and.include('<a href="/v2/console/password" aria-current="page">Password</a>');

    const wrong = await one.browser.post('/v2/console/password', { _csrf: one.csrf, current_password: 'not the password', new_password: 'a new long password' });
    expect(wrong.status).to.equal(403);
    expect(await wrong.text()).to.include('The current password is wrong');
    const short = await one.browser.post('/v2/console/password', { _csrf: one.csrf, current_password: 'correct horse battery', new_password: 'short' });
    expect(short.status).to.equal(422);
    expect(await short.text()).to.include('at least 10 characters');
    const missing = await one.browser.post('/v2/console/password', { _csrf: one.csrf, current_password: 'correct horse battery', new_password: '' });
    expect(missing.status).to.equal(422);
    expect((await one.browser.post('/v2/console/password', { current_password: 'correct horse battery', new_password: 'a new long password' })).status).to.equal(403);
    expect(await hashOf()).to.equal(before);
    expect((await two.browser.get('/v2/console/')).status).to.equal(200);

    const changed = await one.browser.post('/v2/console/password', { _csrf: one.csrf, current_password: 'correct horse battery', new_password: 'a new long password' });
    expect(changed.status).to.equal(303);
    expect(changed.headers.get('location')).to.equal('/v2/console/sign-in?done=password');
    expect(await verifyPassword('a new long password', await hashOf())).to.equal(true);
    expect(await (await one.browser.get('/v2/console/sign-in?done=password')).text()).to.include('Your password is changed: sign in with the new one.');
    // Both sessions are over: each page leads to the sign-in page again.
    for (const { browser } of [one, two]) expect((await browser.get('/v2/console/')).status).to.equal(303);
    await signedInPages(stack.url, email, 'a new long password');
  });
});
