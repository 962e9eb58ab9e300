import { expect } from 'chai';
import { expectFailure, expectSuccess, type TestAccount } from '../helpers/api.ts';

import { consoleClient, sandboxEmail, signedInConsole } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;

describe('console: the sandbox outbox (mail_sink)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });


  const sandboxSend = (account: TestAccount, recipientEmail: string) => sandboxEmail(stack, account, recipientEmail);

  it('lists the sandbox’s emails newest first, paged, and shows one with its text and HTML', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    const first = address('first');
    const second = address('second');
    await sandboxSend(account, first);
    await sandboxSend(account, second);
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    const all = expectSuccess(await client.call('GET', '/outbox')) as Json[];
    expect(all.map((m) => m.to)).to.deep.equal([second, first]);
    expect(Object.keys(all[0]!).sort()).to.deep.equal(['created_at', 'from', 'id', 'message_id', 'reply_to', 'subject', 'to']);
    const page = await client.call('GET', '/outbox?perPage=1&page=2');
    expect((expectSuccess(page) as Json[]).map((m) => m.to)).to.deep.equal([first]);
    expect(page.body.meta).to.deep.equal({ page: 2, perPage: 1, total: 2, totalPages: 2 });
    const row = await stack.models.MailSinkMessage.findOne({ where: { account_id: account.sandboxAccountId, recipient: first }, rejectOnEmpty: true });
    const one = expectSuccess(await client.call('GET', `/outbox/${row.id}`)) as Json;
    expect(one).to.deep.equal({
      id: row.id, message_id: row.message_id, from: row.sender, to: first, reply_to: row.reply_to, subject: row.subject,
      created_at: row.created_at.toISOString(), text: row.text_body, html: row.html_body,
    });
    expect(one.text).to.be.a('string').and.not.equal('');
  });

  it('in live mode the outbox is 422 sandbox_only (live emails go out by SMTP)', async () => {
    const { account, client } = await signedInConsole(stack, { plan: 'pro' });
    await sandboxSend(account, address('live-mode'));
    const row = await stack.models.MailSinkMessage.findOne({ where: { account_id: account.sandboxAccountId }, rejectOnEmpty: true });
    expectFailure(await client.call('GET', '/outbox'), 422, 'sandbox_only');
    expectFailure(await client.call('GET', `/outbox/${row.id}`), 422, 'sandbox_only');
  });

  it('another account’s message, or an unknown id, is 404; a bad id or page is 400', async () => {
    const { client } = await signedInConsole(stack, { plan: 'pro' });
    const other = await signedInConsole(stack, { plan: 'pro' });
    await sandboxSend(other.account, address('theirs'));
    const theirs = await stack.models.MailSinkMessage.findOne({ where: { account_id: other.account.sandboxAccountId }, rejectOnEmpty: true });
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    expectFailure(await client.call('GET', `/outbox/${theirs.id}`), 404, 'not_found');
    expectFailure(await client.call('GET', '/outbox/999999999'), 404, 'not_found');
    expect(expectSuccess(await client.call('GET', '/outbox'))).to.deep.equal([]);
    expectFailure(await client.call('GET', '/outbox/abc'), 400, 'invalid_parameter');
    expectFailure(await client.call('GET', '/outbox?perPage=101'), 400, 'invalid_parameter');
    // B still sees its own.
    expectSuccess(await other.client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    expect((expectSuccess(await other.client.call('GET', `/outbox/${theirs.id}`)) as Json).id).to.equal(theirs.id);
  });

  it('needs a session (401)', async () => {
    const anonymous = consoleClient(stack.url);
    expectFailure(await anonymous.call('GET', '/outbox'), 401, 'session_required');
    expectFailure(await anonymous.call('GET', '/outbox/1'), 401, 'session_required');
  });
});
