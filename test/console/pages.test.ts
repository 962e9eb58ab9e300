import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { packageRoot } from '../../lib/paths.ts';
import { newAccount } from '../helpers/api.ts';
import { hidden, pageClient, setOwnerPassword, signedInPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console pages: sign-in, home, mode, sign-out', function () {
  this.timeout(30_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  it('no session → 303 to sign-in with next; signing in by form lands on next; the console headers are set', async () => {
    const account = await newAccount(stack.models);
    const email = await setOwnerPassword(stack.models, account.accountId, 'correct horse battery');
    const browser = pageClient(stack.url);
    const home = await browser.get('/v2/console/');
    expect(home.status).to.equal(303);
    expect(home.headers.get('location')).to.equal('/v2/console/sign-in?next=%2Fv2%2Fconsole%2F');
    const form = await browser.get('/v2/console/sign-in?next=%2Fv2%2Fconsole%2F');
    const html = await form.text();
    expect(form.headers.get('content-security-policy')).to.equal("default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
    expect(form.headers.get('x-frame-options')).to.equal('DENY');
    expect(html).to.include('<label for="email">Email</label>');
    const wrong = await browser.post('/v2/console/sign-in', { _csrf: hidden(html, '_csrf'), next: '/v2/console/', email, password: 'not it at all' });
    expect(wrong.status).to.equal(401);
    expect(await wrong.text()).to.include('The email or the password is wrong');
    const signed = await browser.post('/v2/console/sign-in', { _csrf: hidden(html, '_csrf'), next: '/v2/console/', email, password: 'correct horse battery' });
    expect(signed.status).to.equal(303);
    expect(signed.headers.get('location')).to.equal('/v2/console/');
    const page = await browser.get('/v2/console/');
    const body = await page.text();
    expect(page.status).to.equal(200);
    expect(body).to.include(email).and.not.include('Sandbox: nothing here');
    const switched = await browser.post('/v2/console/mode', { _csrf: hidden(body, '_csrf'), mode: 'sandbox' });
    expect(switched.status).to.equal(303);
    expect(await (await browser.get('/v2/console/')).text()).to.include('Sandbox: nothing here');
    expect((await browser.post('/v2/console/sign-out', { _csrf: 'wrong' })).status).to.equal(403);
    expect((await browser.post('/v2/console/sign-out', { _csrf: hidden(body, '_csrf') }, 'https://evil.example')).status).to.equal(403);
    const out = await browser.post('/v2/console/sign-out', { _csrf: hidden(body, '_csrf') });
    expect(out.status).to.equal(303);
    expect((await browser.get('/v2/console/')).status).to.equal(303);
  });

  it('next only leads to console paths of this service (no open redirect)', async () => {
    const account = await newAccount(stack.models);
    const email = await setOwnerPassword(stack.models, account.accountId, 'correct horse battery');
    for (const next of ['https://evil.example/', '//evil.example/v2/console/', '/v2/console/\\evil', '/v2/api/key/info', '/v2/console//evil.example']) {
      const browser = pageClient(stack.url);
      const html = await (await browser.get(`/v2/console/sign-in?next=${encodeURIComponent(next)}`)).text();
      expect(hidden(html, 'next')).to.equal('/v2/console/');
      const res = await browser.post('/v2/console/sign-in', { _csrf: hidden(html, '_csrf'), next, email, password: 'correct horse battery' });
      expect(res.headers.get('location'), next).to.equal('/v2/console/');
    }
  });

  it('every page of a signed-in owner (and an error page) has the console’s headers', async () => {
    const account = await newAccount(stack.models);
    const email = await setOwnerPassword(stack.models, account.accountId, 'correct horse battery');
    const { browser } = await signedInPages(stack.url, email, 'correct horse battery');
    const pages = ['', 'keys', 'keys/new', 'tokens', 'webhooks', 'webhooks/deliveries', 'webhooks/subscriptions', 'rewards', 'rewards/orders', 'settings', 'outbox', 'step-up', 'sign-in'];
    const answers: Array<[string, number]> = [...pages.map((page): [string, number] => [`/v2/console/${page}`, 200]), ['/v2/console/keys/999999999', 404]];
    for (const [path, status] of answers) {
      const res = await browser.get(path);
      expect(res.status, path).to.equal(status);
      expect(res.headers.get('content-type'), path).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy'), path).to.equal("default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
      expect(res.headers.get('x-frame-options'), path).to.equal('DENY');
      expect(res.headers.get('cache-control'), path).to.equal('no-store');
      expect(res.headers.get('x-content-type-options'), path).to.equal('nosniff');
    }
  });

  it('no view uses {{{ (everything is escaped)', () => {
    const folder = join(packageRoot, 'templates', 'console');
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.hbs'))) expect(readFileSync(join(folder, file), 'utf8'), file).not.to.include('{{{');
  });
});
