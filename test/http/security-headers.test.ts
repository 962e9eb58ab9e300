import { expect } from 'chai';
import { loggedPath } from '../../api/middleware/request-log.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, newAccount } from '../helpers/api.ts';
import { shareCard } from '../helpers/sends.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';

describe('headers every response carries', function () {
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  it('nosniff on the key API\'s JSON (success and failure), the OpenAPI document, and the public pages', async () => {
    const account = await newAccount(stack.models);
    const answers = [
      await fetch(`${stack.url}/v2/api/key/info`, { headers: { authorization: `Bearer ${account.liveKey}` } }),
      await fetch(`${stack.url}/v2/api/key/info`),
      await fetch(`${stack.url}/v2/api/openapi.json`),
      await fetch(`${stack.url}/u/NoSuchUnsubscribeToken12345`),
      await fetch(`${stack.url}/e/NoSuchPageIdAtAll123456`),
      await fetch(`${stack.url}/healthz`),
    ];
    for (const res of answers) expect(res.headers.get('x-content-type-options'), res.url).to.equal('nosniff');
    expect(answers.map((r) => r.status)).to.deep.equal([200, 401, 200, 404, 404, 200]);
  });

  it('personal pages (/e/, /u/, /g/), found or not, are never cached and send no referrer; their HTML may not be framed', async () => {
    const { account, ecard } = await accountWithWidget(stack);
    const { shareUrl } = await shareCard(stack.url, account.liveKey, ecard.id);
    const pages = [shareUrl, `${stack.url}/e/NoSuchPageIdAtAll123456`, `${stack.url}/u/NoSuchUnsubscribeToken12345`, `${stack.url}/g/NoSuchClaimToken1234567890`];
    for (const url of pages) {
      const res = await fetch(url);
      expect(res.headers.get('cache-control'), url).to.equal('no-store');
      expect(res.headers.get('referrer-policy'), url).to.equal('no-referrer');
      if (res.headers.get('content-type')?.startsWith('text/html')) expect(res.headers.get('content-security-policy'), url).to.include("frame-ancestors 'none'");
    }
    expect((await fetch(shareUrl)).headers.get('content-type')).to.match(/^text\/html/);
  });

  it('the docs page may not be framed and sends no referrer', async () => {
    const res = await fetch(`${stack.url}/v2/api/docs`);
    expect(res.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
  });

  it('HSTS only over https: never on plain http, always behind TRUST_PROXY when the proxy says https', async () => {
    expect((await fetch(`${stack.url}/healthz`)).headers.get('strict-transport-security')).to.equal(null);
    const proxied = await extraApp({ env: { TRUST_PROXY: 'true' } });
    const https = await call(proxied.url, 'GET', '/v2/api/key/info', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).to.equal('max-age=31536000');
    expect((await fetch(`${proxied.url}/healthz`)).headers.get('strict-transport-security')).to.equal(null);
  });

  it('request logs mask card page, unsubscribe and claim tokens to their last 4 characters', () => {
    expect(loggedPath('/e/AbCdEfGhIjKlMnOpQrStUvWx/open')).to.equal('/e/****UvWx/open');
    expect(loggedPath('/u/AbCdEfGhIjKlMnOpQrStUvWx')).to.equal('/u/****UvWx');
    expect(loggedPath('/g/AbCdEfGhIjKlMnOpQrStUvWx')).to.equal('/g/****UvWx');
    expect(loggedPath('/v2/api/e/x')).to.equal('/v2/api/e/x');
  });
});
