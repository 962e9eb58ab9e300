// "Send me a test" on the key API (`POST /ecard/sendTest`) and the console: the eCard's real email (HTML and text,
// sample values, "[Preview]" subject) through the mail queue to the owner or a given address; no quota, no webhook,
// a sandbox's test in its outbox; the queue keeps no body once it is sent.
import { expect } from 'chai';
import { call, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { ownerEmail } from '../../services/owner-mail.ts';
import { setEcardSharedUrl } from '../../services/webhooks/endpoints.ts';

const tag = crypto.randomUUID().slice(0, 8);

describe('"Send me a test": POST /ecard/sendTest and the console\'s test form', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let owner: string;
  let ecardId: number;

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
    account = await newAccount(stack.models, 'free');
    owner = (await ownerEmail(stack, account.accountId))!;
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    await ecard.update({ header: 'Cheers, {{recipient_first_name}}', details: '<p>With love from {{sender_name}}</p>' });
    ecardId = ecard.id;
    await setEcardSharedUrl(stack.services, account.accountId, 'http://127.0.0.1:9/shared');
  });

  const sendTest = (body: unknown, key = account.liveKey) => call(stack.url, 'POST', '/v2/api/ecard/sendTest', { key, body });

  it('reaches the owner by default with HTML and text parts, then the queue keeps neither body; no quota, no webhook delivery', async () => {
    const res = await sendTest({ id: ecardId });
    expect(expectSuccess(res)).to.deep.equal({ queued: true, email: owner });
    const [mail] = await eventually(async () => smtp.to(owner), (m) => m.length === 1, 15_000);
    expect(mail!.subject).to.equal('[Preview] Hello Alex Rivera');
    expect(mail!.html).to.include('Cheers, Alex').and.include('With love from Sam Lee');
    expect(mail!.text).to.include('Cheers, Alex').and.include('/v2/console/preview/ecard/');
    const row = await eventually(
      () => stack.models.MailMessage.findOne({ where: { recipient: owner, kind: 'ecard_test' }, rejectOnEmpty: true }),
      (m) => m.html_body === null && m.text_body === '',
      10_000,
    );
    expect(row.sent_at).to.be.instanceOf(Date);
    expect(await stack.models.QuotaUsage.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await stack.models.WebhookDelivery.count({ where: { account_id: account.accountId } })).to.equal(0);
  });

  it('reaches a given address', async () => {
    const to = `Tester-${tag}@Example.com`;
    expect(expectSuccess(await sendTest({ id: ecardId, email: to }))).to.deep.equal({ queued: true, email: to.toLowerCase() });
    const [mail] = await eventually(async () => smtp.to(to.toLowerCase()), (m) => m.length === 1, 15_000);
    expect(mail!.html).to.include('Cheers, Alex');
  });

  it('a sandbox key\'s test lands in the outbox (mail_sink), never SMTP', async () => {
    const widget = await insertWidget(stack.models, account.sandboxAccountId);
    const ecard = await insertEcard(stack.models, account.sandboxAccountId, widget.id);
    const to = `sandbox-${tag}@example.com`;
    expectSuccess(await sendTest({ id: ecard.id, email: to }, account.sandboxKey));
    const sunk = await eventually(() => stack.models.MailSinkMessage.findOne({ where: { account_id: account.sandboxAccountId, recipient: to } }), (m) => m !== null, 15_000);
    expect(sunk!.subject).to.equal('[Preview] Hello Alex Rivera');
    expect(sunk!.html_body).to.include('Happy day');
    expect(smtp.to(to)).to.have.length(0);
  });

  it('a view-only key is 403, another account\'s eCard 404, a bad email 400', async () => {
    const viewer = await newKey(stack.models, account.accountId, { ecards: 'view' });
    expect((await sendTest({ id: ecardId }, viewer.key)).status).to.equal(403);
    const other = await newAccount(stack.models);
    const theirs = await insertEcard(stack.models, other.accountId, (await insertWidget(stack.models, other.accountId)).id);
    expect((await sendTest({ id: theirs.id })).status).to.equal(404);
    expectFailure(await sendTest({ id: ecardId, email: 'not an address' }), 400, 'invalid_parameter');
    expect(await stack.models.MailMessage.count({ where: { account_id: [account.accountId, other.accountId], recipient: 'not an address' } })).to.equal(0);
  });

  it('an account\'s 21st test in an hour is 429 rate_limited and queues nothing', async () => {
    const busy = await newAccount(stack.models);
    const ecard = await insertEcard(stack.models, busy.accountId, (await insertWidget(stack.models, busy.accountId)).id);
    const now = new Date();
    await stack.models.MailMessage.bulkCreate(
      Array.from({ length: 20 }, () => ({ account_id: busy.accountId, kind: 'ecard_test', recipient: 'x@example.com', subject: 's', text_body: '', sent_at: now, created_at: now })),
    );
    expectFailure(await sendTest({ id: ecard.id }, busy.liveKey), 429, 'rate_limited');
    expect(await stack.models.MailMessage.count({ where: { account_id: busy.accountId } })).to.equal(20);
  });

  it('the console\'s form: 303 back to the editor with test-sent; the owner gets it; a foreign id 404; no CSRF refused', async () => {
    const signed = await ownerOnPages(stack);
    const consoleOwner = (await ownerEmail(stack, signed.account.accountId))!;
    const widget = await insertWidget(stack.models, signed.account.accountId);
    const ecard = await insertEcard(stack.models, signed.account.accountId, widget.id);
    const res = await signed.browser.post(`/v2/console/ecards/${ecard.id}/test`, { _csrf: signed.csrf, email: '' });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/v2/console/ecards/${ecard.id}?done=test-sent`);
    await eventually(async () => smtp.to(consoleOwner), (m) => m.length === 1, 15_000);
    expect((await signed.browser.post(`/v2/console/ecards/${ecardId}/test`, { _csrf: signed.csrf })).status).to.equal(404);
    expect((await signed.browser.post(`/v2/console/ecards/${ecard.id}/test`, { email: '' })).status).to.equal(403);
    expect((await signed.browser.post(`/v2/console/ecards/${ecard.id}/test`, { _csrf: signed.csrf, email: 'nope' })).status).to.equal(400);
  });
});
