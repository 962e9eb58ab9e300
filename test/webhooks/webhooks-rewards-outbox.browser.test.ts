import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { expectAccessible, screenshot, signedInPage, fitsWidth } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver, type Receiver } from '../helpers/receiver.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { hookPath } from '../helpers/webhooks.ts';
import { verifySignature } from '../../lib/signing.ts';
import { accountSecret } from '../../services/webhooks/secrets.ts';

/** Reloads the page until `done` holds for its main text (background work the page does not wait for). */
async function reloadUntil(page: Page, done: (text: string) => boolean, timeoutMs = 20_000): Promise<string> {
  return eventually(
    async () => {
      await page.reload();
      return page.locator('main').innerText();
    },
    done,
    timeoutMs,
    250,
  );
}

/** A table's body rows as the user reads them: the text of each cell. */
async function rowsOf(page: Page, table: string): Promise<string[][]> {
  const rows = await page.locator(`${table} tbody tr`).all();
  return Promise.all(rows.map(async (row) => (await row.locator('td').allInnerTexts()).map((text) => text.trim())));
}

/** A section's link in the header's navigation (the home page links the same sections again). */
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name, exact: true });

/** Clicks what submits a form or follows a link and waits for the page it lands on. */
async function go(page: Page, click: () => Promise<void>, url: RegExp): Promise<void> {
  await Promise.all([page.waitForURL(url), click()]);
}

describe('console in a browser: webhooks, rewards, the sandbox outbox', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let receiver: Receiver;
  before(async function () {
    // Browser flows run once, on SQLite (the MariaDB run checks the same pages through their API tests).
    if (mysqlUrl) this.skip();
    stack = await testStack();
    receiver = await testReceiver();
  });

  it('pauses an endpoint whose receiver fails, re-enables it and replays a delivery, every attempt listed', async () => {
    const { account, ecard } = await accountWithWidget(stack, { plan: 'enterprise' });
    const path = hookPath('browser-paused');
    const url = `${receiver.url}${path}`;
    // The receiver is down (500) until the test has seen the endpoint paused.
    let up = false;
    receiver.on(path, () => ({ status: up ? 200 : 500, body: up ? 'ok' : 'down' }));
    const { page } = await signedInPage(stack, account.accountId);

    await go(page, () => nav(page, 'Webhooks').click(), /\/v2\/console\/webhooks$/);
    expect(await page.locator('main').innerText()).to.include('No endpoints yet.');
    await screenshot(page, 'webhooks-empty');
    await expectAccessible(page);
    await page.getByLabel('URL that receives every shared eCard').fill(url);
    await go(page, () => page.getByRole('button', { name: 'Save the URL' }).click(), /\/v2\/console\/webhooks\?done=url_saved$/);
    expect(await page.locator('.notice').innerText()).to.equal('The ecard_shared URL is saved.');
    const endpointRow = page.locator('tbody tr', { hasText: url });
    const [endpointId, kind, , shownUrl, state] = (await endpointRow.locator('td').allInnerTexts()).map((t) => t.trim());
    expect([kind, shownUrl, state]).to.deep.equal(['ecard_shared', url, 'active']);
    await screenshot(page, 'webhooks-url-saved');
    await expectAccessible(page);

    // Three shared eCards (share links through the key API), each an ecard_shared event whose delivery exhausts its
    // retries against the 500s: the third in a row pauses the endpoint.
    for (let i = 0; i < 3; i++) {
      const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
        key: account.liveKey,
        body: { ecardId: ecard.id, type: 'ecard_copy_link', senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: `rita-${i}@example.com` },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    const paused = await reloadUntil(page, (text) => text.includes('paused since'), 30_000);
    expect(paused).to.include(`Enable endpoint ${endpointId}`);
    const [pausedState, failures] = (await endpointRow.locator('td').allInnerTexts()).map((t) => t.trim()).slice(4, 6);
    expect(pausedState).to.match(/^paused since \d{4}-/);
    expect(failures).to.equal('3');
    const failedRequests = receiver.at(path).length;
    expect(failedRequests).to.equal(9);
    await screenshot(page, 'webhooks-paused');
    await expectAccessible(page);

    up = true;
    await go(page, () => page.getByRole('button', { name: `Enable endpoint ${endpointId}` }).click(), /\/v2\/console\/webhooks\?done=enabled$/);
    expect(await page.locator('.notice').innerText()).to.equal('The endpoint is active again; its count of failed deliveries is reset.');
    expect((await endpointRow.locator('td').allInnerTexts()).map((t) => t.trim()).slice(4, 6)).to.deep.equal(['active', '0']);
    expect(await page.getByRole('button', { name: `Enable endpoint ${endpointId}` }).count()).to.equal(0);
    await screenshot(page, 'webhooks-enabled');
    await expectAccessible(page);

    await go(page, () => page.getByRole('link', { name: 'Delivery log' }).click(), /\/v2\/console\/webhooks\/deliveries$/);
    const log = await rowsOf(page, 'table');
    expect(log.map((r) => [r[1], r[2], r[3], r[4], r[5], r[7]])).to.deep.equal(
      Array.from({ length: 3 }, () => ['ecard_shared', endpointId, 'auto', 'Failed', '3', 'retries exhausted: HTTP 500']),
    );
    await screenshot(page, 'webhook-deliveries');
    await expectAccessible(page);

    const deliveryId = log[0]![0]!.replace('Delivery ', '');
    await go(page, () => page.getByRole('link', { name: `Delivery ${deliveryId}`, exact: true }).click(), new RegExp(`/v2/console/webhooks/deliveries/${deliveryId}$`));
    expect(await page.locator('#delivery-status').innerText()).to.equal('Failed');
    const failedAttempts = (await rowsOf(page, '#attempts')).map((r) => [r[0], r[1], r[3], r[4]]);
    expect(failedAttempts).to.deep.equal([
      ['1', 'auto', 'failed', '500'],
      ['2', 'auto', 'failed', '500'],
      ['3', 'auto', 'failed', '500'],
    ]);
    await screenshot(page, 'webhook-delivery-failed');
    await expectAccessible(page);

    await go(page, () => page.getByRole('button', { name: `Replay delivery ${deliveryId}` }).click(), new RegExp(`/v2/console/webhooks/deliveries/${deliveryId}\\?done=replayed$`));
    expect(await page.locator('.notice').innerText()).to.equal('The delivery is being sent again; its new attempt appears below when it ends.');
    await reloadUntil(page, (text) => /Status\s+Delivered/.test(text) && text.includes('Attempt 4'));
    expect(await page.locator('#delivery-status').innerText()).to.equal('Delivered');
    expect((await rowsOf(page, '#attempts')).map((r) => [r[0], r[1], r[3], r[4]])).to.deep.equal([...failedAttempts, ['4', 'replay', 'delivered', '200']]);
    // The body is one long JSON line: it wraps rather than widening the page.
    expect(await fitsWidth(page)).to.equal(true);
    await screenshot(page, 'webhook-delivery-replayed');
    await expectAccessible(page);

    // The replay reached the receiver signed with the account's secret, with the body and signature the page shows.
    const requests = receiver.at(path);
    expect(requests).to.have.length(failedRequests + 1);
    const replayed = requests.at(-1)!;
    expect(replayed.headers['x-svc-delivery-id']).to.equal(deliveryId);
    const secret = (await accountSecret(stack.services, account.accountId)).secret;
    expect(verifySignature(replayed.headers['x-svc-signature'] as string, replayed.body, [secret])).to.equal(true);
    expect(await page.locator('main > pre').last().innerText()).to.equal(replayed.body);
    const shownHeaders = await page.locator('h3:has-text("Attempt 4") + p + ul li').allInnerTexts();
    expect(shownHeaders).to.include(`X-SVC-Signature: ${replayed.headers['x-svc-signature'] as string}`);
  });

  it('uploads a code file: the notice counts added, duplicate and invalid lines; the inventory matches the key API', async () => {
    const account = await newAccount(stack.models);
    const { page } = await signedInPage(stack, account.accountId);
    await go(page, () => nav(page, 'Rewards').click(), /\/v2\/console\/rewards$/);
    expect(await page.locator('main').innerText()).to.include('No codes uploaded yet.');
    await screenshot(page, 'rewards');
    await expectAccessible(page);

    const tag = `${process.pid}-${Date.now()}`;
    // code[,pin][,expiry] a line: two codes, the first again (a duplicate) and a line of too many fields (invalid, line 4).
    const file = `AAA-${tag}-0001,1234\nBBB-${tag}-0002,,2030-12-31\nAAA-${tag}-0001\nnot,a,code,line\n`;
    await page.getByLabel('Brand').fill('Acme');
    await page.getByLabel('Denomination').fill('25');
    await page.getByLabel('Code file').setInputFiles({ name: 'codes.txt', mimeType: 'text/plain', buffer: Buffer.from(file) });
    await go(page, () => page.getByRole('button', { name: 'Upload codes' }).click(), /\/v2\/console\/rewards\?done=codes&/);
    expect(await page.locator('.notice').innerText()).to.equal('Codes uploaded: 2 added, 1 duplicates skipped, 1 invalid lines: 4.');
    const inventory = await rowsOf(page, 'h2:has-text("Inventory") + .table-wrap table');
    expect(inventory).to.deep.equal([['Acme', '25', 'USD', '2', '0']]);
    // The codes themselves are never shown.
    expect(await page.content()).not.to.include(`AAA-${tag}`);
    await screenshot(page, 'rewards-codes-uploaded');
    await expectAccessible(page);

    const fromKeyApi = expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/rewardInventory', { key: account.liveKey })) as Array<Record<string, unknown>>;
    expect(fromKeyApi).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 2, assigned: 0 }]);
  });

  it('switches to the sandbox and reads a simulated email in the outbox, inside a sandboxed iframe without scripts', async () => {
    const account = await newAccount(stack.models, 'pro');
    const { page } = await signedInPage(stack, account.accountId);
    await screenshot(page, 'home-live');
    await expectAccessible(page);
    await go(page, () => page.getByRole('button', { name: 'Switch to sandbox' }).click(), /\/v2\/console\/$/);
    expect(await page.locator('.banner').innerText()).to.equal('Sandbox: nothing here reaches real people or spends money.');
    expect(await page.getByRole('button', { name: 'Switch to live' }).count()).to.equal(1);
    await screenshot(page, 'home-sandbox');
    await expectAccessible(page);

    // A real sandbox send through the key API (the csk_test_ key): the email lands in mail_sink, not with SMTP.
    expect(account.sandboxKey).to.match(/^csk_test_/);
    const widget = await insertWidget(stack.models, account.sandboxAccountId);
    const ecard = await insertEcard(stack.models, account.sandboxAccountId, widget.id);
    await ecard.update({ details: '<p>Dear {{recipient_first_name}}, the whole team thanks you.</p>' });
    const recipientEmail = `rita-${process.pid}-${Date.now()}@example.com`;
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: account.sandboxKey,
      body: { ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita Reyes', recipientEmail, personalMessage: 'Enjoy the day off' },
    });
    expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    expect((await testSmtpServer()).to(recipientEmail)).to.have.length(0);

    await go(page, () => nav(page, 'Outbox').click(), /\/v2\/console\/outbox$/);
    expect((await rowsOf(page, 'table')).map((r) => [r[1], r[3]])).to.deep.equal([[recipientEmail, 'Hello Rita Reyes']]);
    await screenshot(page, 'outbox');
    await expectAccessible(page);

    await go(page, () => page.getByRole('link', { name: 'Hello Rita Reyes' }).click(), /\/v2\/console\/outbox\/\d+$/);
    expect(await page.locator('.banner').count()).to.equal(1);
    const iframe = page.locator('iframe.email-preview');
    // `sandbox` with no tokens: no scripts, no same-origin access, no forms, no top navigation.
    expect(await iframe.getAttribute('sandbox')).to.equal('');
    expect(await iframe.getAttribute('src')).to.match(/^\/v2\/console\/outbox\/\d+\/html$/);
    const shown = await page.frameLocator('iframe.email-preview').locator('body').innerText();
    expect(shown).to.include('Dear Rita, the whole team thanks you.').and.include('Enjoy the day off');
    expect(await page.locator('.email-text').innerText()).to.include('Enjoy the day off');
    await screenshot(page, 'outbox-message');
    await expectAccessible(page);
  });
});
