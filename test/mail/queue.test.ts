import { expect } from 'chai';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { ownerEmail, queueOwnerNotice } from '../../services/owner-mail.ts';

let counter = 0;

describe('the mail queue (service emails): the sandbox\'s go to the sink, and bodies are cleared once done', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let owner: string;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
    owner = (await ownerEmail(stack, account.accountId))!;
  });

  /** Queues an owner notice for `accountId` with a subject of its own; its row. */
  async function notice(accountId: number, text: string) {
    const subject = `Notice ${process.pid}-${++counter}`;
    expect(await queueOwnerNotice(stack, accountId, { kind: 'test_notice', subject, paragraphs: [text] }, new Date())).to.equal(true);
    return (await stack.models.MailMessage.findOne({ where: { account_id: accountId, subject } }))!;
  }
  const bySubject = (subject: string) => smtp.messages.filter((m) => m.subject === subject);

  it('a live account\'s notice goes out by SMTP and its row keeps no body afterwards', async () => {
    const row = await notice(account.accountId, 'Live words');
    const [mail] = await eventually(async () => bySubject(row.subject), (m) => m.length === 1, 10_000);
    expect(mail!.to).to.deep.equal([owner]);
    expect(mail!.text).to.include('Live words');
    await eventually(async () => row.reload(), (r) => r.text_body === '');
    expect(row.sent_at).to.be.instanceOf(Date);
  });

  it('a sandbox account\'s notice lands in mail_sink under the sandbox (its outbox), never SMTP', async () => {
    const row = await notice(account.sandboxAccountId, 'Sandbox words');
    const sunk = await eventually(
      () => stack.models.MailSinkMessage.findAll({ where: { account_id: account.sandboxAccountId, subject: row.subject } }),
      (rows) => rows.length === 1,
      10_000,
    );
    expect(sunk[0]!.recipient).to.equal(owner);
    expect(sunk[0]!.text_body).to.include('Sandbox words');
    expect(bySubject(row.subject)).to.deep.equal([]);
    await eventually(async () => row.reload(), (r) => r.text_body === '');
  });

  it('a temporary SMTP refusal (4xx) is sent again at a later pass, once, then cleared', async () => {
    smtp.failNext(1, 451, 'Try again later');
    const row = await notice(account.accountId, 'Retried words');
    await eventually(async () => bySubject(row.subject), (m) => m.length === 1, 10_000);
    await eventually(async () => row.reload(), (r) => r.text_body === '');
    expect(bySubject(row.subject)).to.have.length(1);
  });

  it('a permanent SMTP refusal (5xx) is never sent again, and its body is cleared too', async () => {
    smtp.failNext(1, 550, 'No such mailbox');
    const row = await notice(account.accountId, 'Refused words');
    await eventually(async () => row.reload(), (r) => r.sent_at !== null && r.text_body === '', 10_000);
    // A notice queued after it goes out: the queue has passed the refused one, which stays unsent.
    const later = await notice(account.accountId, 'Later words');
    await eventually(async () => bySubject(later.subject), (m) => m.length === 1, 10_000);
    expect(bySubject(row.subject)).to.deep.equal([]);
  });
});
