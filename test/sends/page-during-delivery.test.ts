import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

let counter = 0;
const address = (name: string) => `${name}-delivery-${process.pid}-${++counter}@example.com`;
const linkIn = (text: string) => /https?:\/\/[^\s"<>]+\/e\/([0-9A-Za-z]+)/.exec(text)?.[1];

// A person clicks the moment the email arrives: the send is still under way (its other recipients, its own
// bookkeeping), and the page must already be there.
describe('a recipient\'s page while their send is still going out', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
    const made = await accountWithWidget(stack, { plan: 'pro' });
    account = made.account;
    await made.ecard.update({ header: 'Happy day', details: '<p>Dear {{recipient_name}}</p>' });
    ecardId = made.ecard.id;
  });

  it('answers while the email is being handed over, before the send is marked sent', async () => {
    const alice = address('alice');
    const seen: Array<{ status: number; body: string; sendStatus: string | undefined }> = [];
    // The SMTP server holds its answer to Alice's message until the test has looked at her page.
    const stop = smtp.onMessage(async (mail) => {
      if (!mail.to.includes(alice)) return;
      const pageId = linkIn(mail.text)!;
      const res = await fetch(`${stack.url}/e/${pageId}`);
      const row = await stack.models.Send.findOne({ where: { account_id: account.accountId }, order: [['id', 'DESC']] });
      seen.push({ status: res.status, body: await res.text(), sendStatus: row?.status });
    });
    try {
      const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
        key: account.liveKey,
        body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam Sender', recipientName: 'Alice Able', recipientEmail: alice },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await eventually(async () => seen.length, (n) => n === 1, 15_000);
    } finally {
      stop();
    }
    expect(seen[0]!.sendStatus, 'the send was still under way when the page was asked for').to.equal('pending');
    expect(seen[0]!.status).to.equal(200);
    expect(seen[0]!.body).to.include('Dear Alice Able');
  });
});
