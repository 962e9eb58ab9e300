import { Writable } from 'node:stream';
import { expect } from 'chai';
import { startApi } from '../../app/runtime.ts';
import type { Services } from '../../app/services.ts';
import { createLogger } from '../../lib/logger.ts';
import type { DataKeys } from '../../lib/data-key.ts';
import type { Models } from '../../models/index.ts';
import { newClaimToken } from '../../services/rewards/claim-token.ts';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { testConfig, testModels, testServices } from '../helpers/stack.ts';
import { seedGift, type SeedOptions } from './claim-seed.ts';

interface Page {
  status: number;
  headers: Headers;
  html: string;
}

const DAY = 86_400_000;

describe('rewards: the claim page /g/<token>', function () {
  this.timeout(30_000);
  let models: Models;
  let keys: DataKeys;
  let services: Services;
  let url: string;
  let account: TestAccount;
  // The API's log lines (its own instance, so the test sees what it logs).
  const lines: string[] = [];

  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const config = await testConfig({ LOG_LEVEL: 'info' });
    models = await testModels();
    services = await testServices(config, { logger: createLogger(config, sink) });
    keys = services.dataKeys!;
    const api = await startApi(services, { host: '127.0.0.1' });
    onSuiteEnd(() => api.stop());
    url = api.url;
  });
  beforeEach(async () => {
    account = await newAccount(models);
  });

  const page = async (method: 'GET' | 'POST', token: string): Promise<Page> => {
    const res = await fetch(`${url}/g/${token}`, { method, redirect: 'manual' });
    return { status: res.status, headers: res.headers, html: await res.text() };
  };
  const seed = (options: SeedOptions) => seedGift(models, keys, account.accountId, options);
  const code = () => `GIFT-${Math.random().toString(36).slice(2, 10).toUpperCase()}-${Date.now()}`;

  const expectPrivate = (res: Page) => {
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("frame-ancestors 'none'");
    expect(csp).to.include("default-src 'none'");
    expect(csp).to.include("form-action 'self'");
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    // The inline style runs under the answer's nonce and nothing else.
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).to.be.a('string');
    expect(res.html).to.include(`<style nonce="${nonce}">`);
  };

  it('GET shows brand, amount and the date to claim by with a button, never the code, and changes nothing', async () => {
    const secret = code();
    const gift = await seed({ brand: 'Acme Books', amountCents: 2550, code: secret, pin: '8642', order: { expires_at: new Date('2031-03-14T12:00:00Z') } });
    const res = await page('GET', gift.token);
    expect(res.status).to.equal(200);
    expectPrivate(res);
    expect(res.html).to.include('Acme Books').and.include('$25.50').and.include('March 14, 2031');
    expect(res.html).to.match(/<form method="post">\s*<button type="submit">Claim my gift card<\/button>/);
    expect(res.html).not.to.include(secret);
    expect(res.html).not.to.include('8642');
    expect(res.html).not.to.include('Gifted Person');
    await gift.order.reload();
    expect(gift.order.claim_status).to.equal('unclaimed');
    expect(gift.order.claimed_at).to.equal(null);
  });

  it('POST reveals the code and PIN and marks the order claimed; a later POST shows them again, claimed_at kept', async () => {
    const secret = code();
    const gift = await seed({ code: secret, pin: '1357', codeExpiresOn: '2032-01-31' });
    const first = await page('POST', gift.token);
    expect(first.status).to.equal(200);
    expectPrivate(first);
    expect(first.html).to.include(secret).and.include('1357').and.include('has been claimed').and.include('January 31, 2032');
    await gift.order.reload();
    expect(gift.order.claim_status).to.equal('claimed');
    const claimedAt = gift.order.claimed_at;
    expect(claimedAt).to.be.instanceOf(Date);

    const again = await page('POST', gift.token);
    expect(again.status).to.equal(200);
    expect(again.html).to.include(secret).and.include('1357');
    await gift.order.reload();
    expect(gift.order.claimed_at!.getTime()).to.equal(claimedAt!.getTime());
    // GET after a claim offers to show it again, still without the code.
    const offer = await page('GET', gift.token);
    expect(offer.status).to.equal(200);
    expect(offer.html).to.include('already claimed').and.not.include(secret);
  });

  it('two POSTs at once both show the code and the order is claimed once', async () => {
    const secret = code();
    const gift = await seed({ code: secret });
    const answers = await Promise.all([page('POST', gift.token), page('POST', gift.token)]);
    for (const a of answers) {
      expect(a.status).to.equal(200);
      expect(a.html).to.include(secret);
    }
    await gift.order.reload();
    expect(gift.order.claim_status).to.equal('claimed');
  });

  it('a provider-style order (the code sealed on the order) reveals too; without a PIN none is shown', async () => {
    const secret = code();
    const gift = await seed({ source: 'simulated', code: secret, brand: 'Simulated Coffee', amountCents: 1000 });
    expect((await page('GET', gift.token)).html).to.include('Simulated Coffee').and.include('$10.00').and.not.include(secret);
    const res = await page('POST', gift.token);
    expect(res.status).to.equal(200);
    expect(res.html).to.include(secret).and.not.include('PIN');
    await gift.order.reload();
    expect(gift.order.claim_status).to.equal('claimed');
  });

  it('answers 404 for an unknown, malformed, voided, refunded or unpaid link, on GET and POST', async () => {
    const voided = await seed({ code: code(), order: { voided: true } });
    const canceled = await seed({ code: code(), order: { payment_status: 'refunded', fulfillment_status: 'canceled' } });
    const pending = await seed({ code: code(), order: { payment_status: 'pending', fulfillment_status: 'pending' } });
    for (const token of [newClaimToken().token, 'short', voided.token, canceled.token, pending.token]) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await page(method, token);
        expect(res.status, `${method} ${token}`).to.equal(404);
        expectPrivate(res);
        expect(res.html).to.include('Gift card not found');
      }
    }
    for (const gift of [voided, canceled, pending]) {
      await gift.order.reload();
      expect(gift.order.claim_status).to.equal('unclaimed');
    }
  });

  it('a pool code no longer the order\'s (back in inventory) is not shown', async () => {
    const secret = code();
    const gift = await seed({ code: secret });
    await gift.code!.update({ order_id: null, assigned_at: null });
    const res = await page('POST', gift.token);
    expect(res.status).to.equal(404);
    expect(res.html).not.to.include(secret);
  });

  it('answers 410 for an expired order, or one past expires_at before the daily expiry ran, and reveals nothing', async () => {
    const moved = await seed({ code: code(), order: { claim_status: 'expired', expires_at: new Date(Date.now() - DAY) } });
    const due = await seed({ code: code(), brand: 'Late Books', order: { expires_at: new Date(Date.now() - 1000) } });
    for (const gift of [moved, due]) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await page(method, gift.token);
        expect(res.status, method).to.equal(410);
        expectPrivate(res);
        expect(res.html).to.include('expired');
        expect(res.html).not.to.include('GIFT-');
      }
    }
    expect((await page('GET', due.token)).html).to.include('Late Books');
    await due.order.reload();
    expect(due.order.claim_status).to.equal('unclaimed');
    expect(due.order.claimed_at).to.equal(null);
  });

  it('never logs the token, the code or the PIN: the request line shows /g/**** and the token\'s last 4', async () => {
    const secret = code();
    const gift = await seed({ code: secret, pin: '97531' });
    const before = lines.length;
    await page('GET', gift.token);
    await page('POST', gift.token);
    await page('POST', gift.token);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = lines.slice(before);
    const requests = logged.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === 'request');
    expect(requests.map((r) => [r.method, r.path, r.status])).to.deep.equal([
      ['GET', `/g/****${gift.token.slice(-4)}`, 200],
      ['POST', `/g/****${gift.token.slice(-4)}`, 200],
      ['POST', `/g/****${gift.token.slice(-4)}`, 200],
    ]);
    const all = lines.join('\n');
    expect(all).not.to.include(gift.token);
    expect(all).not.to.include(gift.token.slice(0, 20));
    expect(all).not.to.include(secret);
    expect(all).not.to.include('97531');
  });

  it('other methods are 405 and the page is not under /v2/api (no key needed)', async () => {
    const gift = await seed({ code: code() });
    const res = await fetch(`${url}/g/${gift.token}`, { method: 'PUT' });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.include('GET').and.include('POST');
  });
});
