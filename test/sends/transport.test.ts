import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { randomId } from '../../lib/ids.ts';
import { createMailTransport, MailError, classifySmtpError } from '../../services/mail/transport.ts';
import { STARTER_GRACE_MS } from '../../services/sends/accept/start.ts';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertSend, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack } from '../helpers/stack.ts';

describe('the mail transport and the send sweeper', function () {
  this.timeout(60_000);
  const mail = (to: string) => ({ accountId: null, messageId: `<t.${randomId(8)}@cardsvc>`, from: { name: 'Sam', address: 'no-reply@example.com' }, to, subject: 'Hi', text: 'Hello' });

  it('MAIL_TRANSPORT=sink keeps live emails in mail_sink; no transport refuses; SMTP delivers to the server', async () => {
    const { models } = await testStack();
    const smtp = await testSmtpServer();
    const sink = createMailTransport({ models }, { transport: 'sink', smtpUrl: undefined, sinkByDefault: false, poolSize: 5 });
    const to = `sink-${randomId(6)}@example.com`;
    await sink.send(mail(to), { sandbox: false });
    expect(await models.MailSinkMessage.count({ where: { recipient: to } })).to.equal(1);
    expect(smtp.to(to)).to.have.length(0);

    const none = createMailTransport({ models }, { transport: 'none', smtpUrl: undefined, sinkByDefault: false, poolSize: 5 });
    const refused = await none.send(mail(to), { sandbox: false }).then(() => null, (err: unknown) => err);
    expect(refused).to.be.instanceOf(MailError);
    expect((refused as MailError).kind).to.equal('permanent');

    const real = createMailTransport({ models }, { transport: 'smtp', smtpUrl: smtp.url, sinkByDefault: false, poolSize: 5 });
    const viaSmtp = `smtp-${randomId(6)}@example.com`;
    await real.send(mail(viaSmtp), { sandbox: false });
    // Sandbox mail never leaves, whatever the transport.
    await real.send(mail(`sandbox-${viaSmtp}`), { sandbox: true });
    real.close();
    expect(smtp.to(viaSmtp)).to.have.length(1);
    expect(smtp.to(`sandbox-${viaSmtp}`)).to.have.length(0);
  });

  it('logs in when SMTP_URL carries user:pass', async () => {
    const { models } = await testStack();
    const received: string[] = [];
    const logins: string[] = [];
    const server = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username}:${auth.password}`);
        if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push(session.envelope.rcptTo.map((r) => r.address).join(','));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.server.address() as AddressInfo;
      const good = createMailTransport({ models }, { transport: 'smtp', smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${port}`, sinkByDefault: false, poolSize: 5 });
      await good.send(mail('authed@example.com'), { sandbox: false });
      good.close();
      expect(received).to.deep.equal(['authed@example.com']);
      const bad = createMailTransport({ models }, { transport: 'smtp', smtpUrl: `smtp://mailer:wrong@127.0.0.1:${port}`, sinkByDefault: false, poolSize: 5 });
      const refused = await bad.send(mail('nope@example.com'), { sandbox: false }).then(() => null, (err: unknown) => err);
      bad.close();
      expect(refused).to.be.instanceOf(MailError);
      expect(logins).to.deep.equal(['mailer:s3cret', 'mailer:wrong']);
      expect(received).to.deep.equal(['authed@example.com']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('SMTP goes over a pool of SMTP_POOL_SIZE connections (sendMany in parallel); a refused connection is retryable', async () => {
    const { models } = await testStack();
    let connections = 0;
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      disableReverseLookup: true,
      logger: false,
      onConnect(_session, callback) {
        connections += 1;
        callback();
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push(session.envelope.rcptTo[0]!.address);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    try {
      const pooled = createMailTransport({ models }, { transport: 'smtp', smtpUrl: `smtp://127.0.0.1:${port}`, sinkByDefault: false, poolSize: 2 });
      const batch = Array.from({ length: 30 }, (_, i) => mail(`pool${i}@example.com`));
      expect(await pooled.sendMany(batch.slice(0, 15), { sandbox: false })).to.deep.equal(Array(15).fill(null));
      expect(await pooled.sendMany(batch.slice(15), { sandbox: false })).to.deep.equal(Array(15).fill(null));
      pooled.close();
      expect(received).to.have.members(batch.map((m) => m.to));
      expect(connections).to.be.within(1, 2);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // Nothing listens there now: the message never reached a server, so sending it again is safe.
    const refused = createMailTransport({ models }, { transport: 'smtp', smtpUrl: `smtp://127.0.0.1:${port}`, sinkByDefault: false, poolSize: 2 });
    const [outcome] = await refused.sendMany([mail('nobody@example.com')], { sandbox: false });
    refused.close();
    expect(outcome).to.be.instanceOf(MailError);
    expect(outcome!.kind).to.equal('retryable');
  });

  it('classifies SMTP failures: 5xx permanent, 4xx and failures before DATA retryable, the rest unknown', () => {
    expect(classifySmtpError({ responseCode: 550, message: 'no' }).kind).to.equal('permanent');
    expect(classifySmtpError({ responseCode: 451, message: 'later' }).kind).to.equal('retryable');
    expect(classifySmtpError({ code: 'ECONNECTION', message: 'refused' }).kind).to.equal('retryable');
    expect(classifySmtpError({ command: 'RCPT TO', message: 'x' }).kind).to.equal('retryable');
    expect(classifySmtpError({ code: 'ETIMEDOUT', command: 'DATA', message: 'timeout' }).kind).to.equal('unknown');
  });

  it('the sweeper starts a committed send whose workflow never started', async () => {
    const { models } = await testStack();
    const smtp = await testSmtpServer();
    const account = await newAccount(models);
    const widget = await insertWidget(models, account.accountId);
    const ecard = await insertEcard(models, account.accountId, widget.id);
    const to = `swept-${randomId(6)}@example.com`;
    // What the API leaves when it dies between its commit and the workflow start, committed longer ago than the
    // grace the sweeper leaves the API's starter.
    const send = await insertSend(models, ecard, to);
    await models.sequelize.query('UPDATE sends SET created_at = ? WHERE id = ?', { replacements: [new Date(Date.now() - STARTER_GRACE_MS - 1000), send.id] });
    await eventually(async () => smtp.to(to), (m) => m.length > 0, 10_000);
    expect(smtp.to(to)).to.have.length(1);
    await eventually(() => send.reload(), (s) => s.status === 'sent');
    expect(await send.reload()).to.deep.include({ status: 'sent', workflow_started: true, emails_sent: 1 });
  });
});
