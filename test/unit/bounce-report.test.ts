// The bounce listener's pure parts: what a report says (DSN, ARF, anything else), and which addresses are VERP
// return paths of ours.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { DIAGNOSTIC_LENGTH, parseBounceReport } from '../../services/bounces/report.ts';
import { outgoingMail } from '../../services/sends/delivery/delivery.ts';
import { newBounceToken, returnPathOf, tokenOfReturnPath } from '../../services/sends/delivery/return-path.ts';
import { complaint, dsn } from '../bounces/reports.ts';

const parse = (raw: string) => parseBounceReport(Buffer.from(raw));
const base = { to: 'bounces+x@b.example', finalRecipient: 'ann@example.org', messageId: '<s.1@cardsvc>' };

describe('bounce reports (mailparser)', () => {
  it('a failed DSN with 5.x.x is hard: its status and diagnostic (unfolded, the address taken out) and the original Message-ID', async () => {
    expect(await parse(dsn({ ...base, status: '5.1.1' }))).to.deep.equal({
      kind: 'hard',
      status: '5.1.1',
      diagnostic: 'smtp; 550 5.1.1 <address>: Recipient address rejected: User unknown in virtual mailbox table',
      originalMessageId: '<s.1@cardsvc>',
    });
  });

  it('4.x.x is soft, whether the action is delayed or failed', async () => {
    for (const action of ['delayed', 'failed']) expect(await parse(dsn({ ...base, action, status: '4.2.2 (mailbox full)', diagnostic: '452 full' }))).to.deep.include({ kind: 'soft', status: '4.2.2', diagnostic: 'smtp; 452 full' });
  });

  it('a success DSN (delivered, relayed), a status that is not one, or a missing delivery-status part reports nothing', async () => {
    expect(await parse(dsn({ ...base, action: 'delivered', status: '2.0.0' }))).to.equal(null);
    expect(await parse(dsn({ ...base, action: 'relayed', status: '2.0.0' }))).to.equal(null);
    expect(await parse(dsn({ ...base, status: 'banana' }))).to.equal(null);
    expect(await parse(dsn({ ...base, status: '2.1.5' }))).to.equal(null);
    expect(await parse(dsn({ ...base, status: '5.1.1' }).replace('message/delivery-status', 'text/plain'))).to.equal(null);
  });

  it('a diagnostic is cut to its length and control characters go', async () => {
    const report = await parse(dsn({ ...base, status: '5.7.1', diagnostic: `550 5.7.1 \u0007\u001b[31m ${'blocked '.repeat(100)}` }));
    expect(report!.diagnostic).to.have.length(DIAGNOSTIC_LENGTH);
    expect(report!.diagnostic).to.match(/^smtp; 550 5\.7\.1 \[31m blocked/);
    expect(report!.diagnostic).to.not.match(/\p{Cc}/u);
  });

  it('an ARF report of abuse is a complaint with the attached message\'s Message-ID; not-spam and auth-failure are not', async () => {
    expect(await parse(complaint({ to: base.to, messageId: '<s.2@cardsvc>' }))).to.deep.equal({ kind: 'complaint', status: null, diagnostic: 'abuse', originalMessageId: '<s.2@cardsvc>' });
    expect(await parse(complaint({ to: base.to, messageId: '<s.2@cardsvc>', feedbackType: 'not-spam' }))).to.equal(null);
    expect(await parse(complaint({ to: base.to, messageId: '<s.2@cardsvc>', feedbackType: 'auth-failure' }))).to.equal(null);
  });

  it('a complaint with only the original headers (text/rfc822-headers) still names the Message-ID', async () => {
    const raw = complaint({ to: base.to, messageId: '<s.3@cardsvc>' }).replace('Content-Type: message/rfc822', 'Content-Type: text/rfc822-headers');
    expect(await parse(raw)).to.deep.include({ kind: 'complaint', originalMessageId: '<s.3@cardsvc>' });
  });

  it('plain text, binary noise and an empty message report nothing', async () => {
    for (const raw of ['Subject: out of office\r\n\r\nBack Monday.', '\u0000\u00ff\u00fe garbage', '']) expect(await parse(raw)).to.equal(null);
  });
});

describe('VERP return paths', () => {
  it('BOUNCE_DOMAIN is optional (no VERP, no listener) and must be a domain name; BOUNCE_SMTP_PORT defaults to 2525', () => {
    expect(loadConfig({}).bounces).to.deep.equal({ domain: undefined, port: 2525 });
    expect(loadConfig({ BOUNCE_DOMAIN: ' Bounces.Example.COM ', BOUNCE_SMTP_PORT: '25' }).bounces).to.deep.equal({ domain: 'bounces.example.com', port: 25 });
    for (const bad of ['', 'not a domain', 'bounces@example.com', '-x.example.com', 'example.com.']) {
      expect(() => loadConfig({ BOUNCE_DOMAIN: bad }), bad).to.throw(ConfigError, /^Invalid configuration: BOUNCE_DOMAIN: /);
    }
    expect(() => loadConfig({ BOUNCE_SMTP_PORT: '70000' })).to.throw(ConfigError, /^Invalid configuration: BOUNCE_SMTP_PORT: expected a port number/);
  });

  const bounces = { domain: 'bounces.example.com', port: 2525 };
  const none = { domain: undefined, port: 2525 };

  it('a token is 32 lower-case hex characters (128 random bits), a new one each time; none without a domain', () => {
    const tokens = Array.from({ length: 20 }, () => newBounceToken(bounces));
    for (const t of tokens) expect(t).to.match(/^[0-9a-f]{32}$/);
    expect(new Set(tokens).size).to.equal(20);
    expect(newBounceToken(none)).to.equal(null);
  });

  it('the return path is bounces+<token>@BOUNCE_DOMAIN, read back case-insensitively; other addresses name no token', () => {
    const token = newBounceToken(bounces)!;
    const path = returnPathOf(bounces, token)!;
    expect(path).to.equal(`bounces+${token}@bounces.example.com`);
    expect(tokenOfReturnPath(bounces, path.toUpperCase())).to.equal(token);
    for (const other of [`bounces+${token}@other.example.com`, `bounce+${token}@bounces.example.com`, `bounces+${token.slice(1)}@bounces.example.com`, 'postmaster@bounces.example.com', 'nonsense']) {
      expect(tokenOfReturnPath(bounces, other), other).to.equal(null);
    }
    expect(tokenOfReturnPath(none, path)).to.equal(null);
  });

  it('without BOUNCE_DOMAIN an email has no envelope sender of its own (MAIL_FROM\'s address, as before)', () => {
    const email = { subject: 's', text: 't', html: 'h' };
    const send = { account_id: 1, sender_name: 'Sam', sender_email: 'sam@example.com' };
    const recipient = { recipient_email: 'ann@example.org', bounce_token: 'ab'.repeat(16) };
    expect(outgoingMail(loadConfig({}), send, recipient, '<m@cardsvc>', email).returnPath).to.equal(undefined);
    expect(outgoingMail(loadConfig({ BOUNCE_DOMAIN: 'Bounces.Example.com' }), send, recipient, '<m@cardsvc>', email).returnPath).to.equal(`bounces+${'ab'.repeat(16)}@bounces.example.com`);
  });
});
