import { expect } from 'chai';
import { call, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

let counter = 0;
const tag = crypto.randomUUID().slice(0, 8);
const address = (name: string) => `${name}-${tag}-${++counter}@example.com`;

describe('"Send one back" on the card page and "Send another" in read receipts link to the sending widget when it is public', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
  });

  /** A card sent from a widget (public or not) with a read receipt; its sender, its page id and the widget's page URL. */
  async function sentFrom(isPublic: boolean, locale = 'en') {
    const widget = await insertWidget(stack.models, account.accountId);
    await widget.update({ public_share_enabled: isPublic });
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const sender = address('sam');
    const body = { ecardId: ecard.id, senderEmail: sender, senderName: 'Sam', recipientName: 'Alice', recipientEmail: address('alice'), opennotification: true, locale };
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const send = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
    const recipient = await eventually(() => stack.models.SendRecipient.findOne({ where: { send_id: send.id } }), (r) => r?.rendered_html != null, 10_000);
    return { sender, pageId: recipient!.page_id!, widgetUrl: `${stack.config.publicBaseUrl}/w/${widget.vanity_id}` };
  }
  const page = async (pageId: string) => (await fetch(`${stack.url}/e/${pageId}`)).text();
  const open = async (pageId: string) => expect((await fetch(`${stack.url}/e/${pageId}/open`, { method: 'POST', redirect: 'manual' })).status).to.equal(303);

  it('a public widget: the page links "Send one back" to /w/<vanity>, the read receipt says "Send another eCard: <url>"', async () => {
    const { sender, pageId, widgetUrl } = await sentFrom(true);
    expect(await page(pageId)).to.include(`<a class="send-back" href="${widgetUrl}">Send one back</a>`);
    await open(pageId);
    const [receipt] = await eventually(async () => smtp.to(sender), (m) => m.length === 1, 10_000);
    expect(receipt!.text).to.include(`Send another eCard: ${widgetUrl}`);
  });

  it('in the send’s language', async () => {
    const { sender, pageId, widgetUrl } = await sentFrom(true, 'de');
    expect(await page(pageId)).to.include(`<a class="send-back" href="${widgetUrl}">Eine zurückschicken</a>`);
    await open(pageId);
    const [receipt] = await eventually(async () => smtp.to(sender), (m) => m.length === 1, 10_000);
    expect(receipt!.text).to.include(`Noch eine Karte senden: ${widgetUrl}`);
  });

  it('a private widget: neither link', async () => {
    const { sender, pageId, widgetUrl } = await sentFrom(false);
    const html = await page(pageId);
    expect(html).to.include('class="toolbar"');
    expect(html).not.to.include('<a class="send-back"');
    expect(html).not.to.include(widgetUrl);
    await open(pageId);
    const [receipt] = await eventually(async () => smtp.to(sender), (m) => m.length === 1, 10_000);
    expect(receipt!.text).to.include('Alice opened the eCard');
    expect(receipt!.text).not.to.include('/w/');
  });
});
