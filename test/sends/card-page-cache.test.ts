import { expect } from 'chai';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard } from '../helpers/catalog.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { shareCard } from '../helpers/sends.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

let counter = 0;
const tag = crypto.randomUUID().slice(0, 8);

// The card page is rendered once and kept a minute per process by everything it shows (services/sends/card-page/page-cache.ts):
// whatever changes what a page shows, here or in another process, shows on the next request.
describe('the card page\'s render cache: a page shows every change at once', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let ecardId: number;
  let widgetId: number;
  before(async () => {
    stack = await testStack();
    await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    const { widget } = await insertPublicWidget(stack.models, account.accountId, { ecards: 0 });
    widgetId = widget.id;
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
  });

  const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)![1]!;
  const escaped = (nonce: string) => nonce.replaceAll('=', '&#x3D;');
  async function page(pageId: string) {
    const res = await fetch(`${stack.url}/e/${pageId}`);
    return { status: res.status, html: await res.text(), nonce: res.status === 200 ? nonceOf(res.headers.get('content-security-policy')!) : '' };
  }
  const share = async (extra: Record<string, unknown> = {}) => (await shareCard(stack.url, account.liveKey, ecardId, extra)).statVanityId;

  it('two requests for one page: the same page, each with its own nonce, the one its CSP names, in every place', async () => {
    const pageId = await share({ recipientName: 'Rita Reader' });
    const [first, second] = [await page(pageId), await page(pageId)];
    expect(first.status).to.equal(200);
    expect(first.nonce).to.not.equal(second.nonce);
    for (const p of [first, second]) {
      expect(p.html).to.include(`<style nonce="${escaped(p.nonce)}">`).and.include(`<script nonce="${escaped(p.nonce)}">`);
      expect(p.html).to.include('Rita Reader');
    }
    expect(first.html.replaceAll(escaped(first.nonce), 'N')).to.equal(second.html.replaceAll(escaped(second.nonce), 'N'));
  });

  it('the open action: the next request shows the card open', async () => {
    const pageId = await share();
    expect((await page(pageId)).html).to.include('class="is-sealed');
    expect((await fetch(`${stack.url}/e/${pageId}/open`, { method: 'POST', redirect: 'manual' })).status).to.equal(303);
    expect((await page(pageId)).html).to.include('class="is-open').and.not.include('class="is-sealed');
  });

  it('the sender\'s address erased: the page is gone at once', async () => {
    const senderEmail = `cache-${tag}-${++counter}@example.com`;
    const pageId = await share({ senderEmail, senderName: 'Stella Sender' });
    expect((await page(pageId)).html).to.include('Stella Sender');
    expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/erase-address', { key: account.liveKey, body: { email: senderEmail } }));
    const after = await page(pageId);
    expect(after.status).to.equal(404);
    expect(after.html).to.not.include('Stella');
  });

  it('the widget made private: "Send one back" goes at once; public again, it is back', async () => {
    const pageId = await share();
    expect((await page(pageId)).html).to.include('class="send-back"');
    await stack.models.Widget.update({ public_share_enabled: false }, { where: { id: widgetId } });
    expect((await page(pageId)).html).to.not.include('class="send-back"');
    await stack.models.Widget.update({ public_share_enabled: true }, { where: { id: widgetId } });
    expect((await page(pageId)).html).to.include('class="send-back"');
  });

  it('rows changed by another process (the recipient\'s card, the send): the next request shows them', async () => {
    const pageId = await share({ recipientName: 'Rita Reader' });
    expect((await page(pageId)).html).to.include('For Rita Reader');
    // Written straight to the database, as another API or worker process would: this process is told nothing.
    await stack.models.SendRecipient.update({ recipient_name: 'Rosa Reader' }, { where: { page_id: pageId } });
    expect((await page(pageId)).html).to.include('For Rosa Reader').and.not.include('For Rita Reader');
    await stack.models.Send.update({ sender_name: 'Samantha' }, { where: { stat_vanity_id: pageId } });
    expect((await page(pageId)).html).to.include('From Samantha');
    await stack.models.Send.update({ status: 'canceled' }, { where: { stat_vanity_id: pageId } });
    expect((await page(pageId)).status).to.equal(404);
  });

  it('?thanks=sent and the plain page are two pages', async () => {
    const pageId = await share();
    const thanked = await fetch(`${stack.url}/e/${pageId}?thanks=sent`).then((r) => r.text());
    const plain = (await page(pageId)).html;
    expect(thanked).to.include('class="notice"');
    expect(plain).to.not.include('class="notice"');
  });
});
