import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { insertWidget } from '../helpers/catalog.ts';
import { cardsvc } from '../helpers/cli.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;

/** A flat failure: `{ success: false, reason, messages }` with its status, and no `data`. */
function expectRefusal(res: ApiResponse, status: number, reason: string): string[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.include({ success: false, reason });
  expect(res.body).not.to.have.property('data');
  const messages = res.body.messages as string[];
  expect(messages).to.be.an('array').that.is.not.empty;
  return messages;
}

describe('send-ecard: every rejection reason, quota, idempotency', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  let widgetId: number;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    const made = await accountWithWidget(stack);
    account = made.account;
    widgetId = made.widget.id;
    ecardId = made.ecard.id;
  });
  const send = (body: Record<string, unknown>, options: { key?: string; url?: string; headers?: Record<string, string> } = {}) =>
    call(options.url ?? stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: options.key ?? account.liveKey,
      body,
      ...(options.headers ? { headers: options.headers } : {}),
    });
  const base = () => ({ ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: address('rita') });
  const env = () => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });
  const sendsOf = () => stack.models.Send.count({ where: { account_id: account.accountId } });

  it('400: einvalid, finvalid, tooshort, toomany; nothing is sent or stored', async () => {
    expectRefusal(await send({ ...base(), senderEmail: 'not-an-email' }), 400, 'einvalid');
    expectRefusal(await send({ ...base(), recipientEmail: 'nope@' }), 400, 'finvalid');
    expectRefusal(await send({ ...base(), recipientName: ['A', 'B'], recipientEmail: [address('a'), 'bad'] }), 400, 'finvalid');
    expectRefusal(await send({ ...base(), recipientEmail: undefined }), 400, 'tooshort');
    expectRefusal(await send({ ...base(), recipientEmail: [], recipientName: [] }), 400, 'tooshort');
    const many = Array.from({ length: 51 }, (_, i) => address(`m${i}`));
    expectRefusal(await send({ ...base(), recipientName: many.map((_, i) => `R${i}`), recipientEmail: many }), 400, 'toomany');
    expect(await sendsOf()).to.equal(0);
  });

  it('malformed or missing fields are flat 400/422; sendAt needs an offset, must not be past', async () => {
    expectRefusal(await send({ ...base(), ecardId: undefined }), 422, 'missing_field');
    expectRefusal(await send({ ...base(), senderName: '' }), 422, 'missing_field');
    expectRefusal(await send({ ...base(), sendAt: '2030-01-01T10:00:00' }), 400, 'invalid_parameter');
    expectRefusal(await send({ ...base(), sendAt: new Date(Date.now() - 3600_000).toISOString() }), 422, 'send_at_past');
    expectRefusal(await send({ ...base(), sendAt: new Date(Date.now() + 400 * 86400_000).toISOString() }), 422, 'send_at_too_far');
    expectRefusal(await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, rawBody: '{"ecardId":', headers: { 'Content-Type': 'application/json' } }), 400, 'malformed_json');
    expect(await sendsOf()).to.equal(0);
  });

  it('404 for another account\'s eCard or a widgetId that is not the eCard\'s; 401 and 403 are flat too', async () => {
    const other = await newAccount(stack.models);
    expectRefusal(await send(base(), { key: other.liveKey }), 404, 'not_found');
    const otherWidget = await insertWidget(stack.models, account.accountId);
    expectRefusal(await send({ ...base(), widgetId: otherWidget.vanity_id }), 404, 'not_found');
    const ok = await send({ ...base(), widgetId: (await stack.models.Widget.findByPk(widgetId))!.vanity_id });
    expect(ok.status).to.equal(200);
    expectRefusal(await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { body: base() }), 401, 'missing_api_key');
  });

  it('403 blocked: a suppressed address or a blocked domain (cardsvc suppression add|remove)', async () => {
    const id = String(account.accountId);
    const blockedAddress = address('blocked');
    const added = await cardsvc(['suppression', 'add', '--account', id, '--email', blockedAddress.toUpperCase(), '--json'], env());
    expect(JSON.parse(added.stdout)).to.deep.include({ kind: 'email', value: blockedAddress, blocked: true, changed: true });
    const messages = expectRefusal(await send({ ...base(), recipientName: ['A', 'B'], recipientEmail: [address('fine'), blockedAddress] }), 403, 'blocked');
    expect(messages[0]).to.include(blockedAddress);
    await cardsvc(['suppression', 'add', '--account', id, '--domain', 'spam.example.org', '--json'], env());
    expectRefusal(await send({ ...base(), recipientEmail: 'x@spam.example.org' }), 403, 'blocked');
    await cardsvc(['suppression', 'remove', '--account', id, '--domain', 'spam.example.org', '--json'], env());
    expect((await send({ ...base(), recipientEmail: 'x@spam.example.org' })).status).to.equal(200);
    const bad = await cardsvc(['suppression', 'add', '--account', id, '--domain', 'not a domain', '--json'], env());
    expect(bad.code).to.equal(1);
  });

  it('403 spammer while the account\'s sending is suspended (cardsvc account suspend-sends|resume-sends)', async () => {
    const id = String(account.accountId);
    const suspended = await cardsvc(['account', 'suspend-sends', '--account', id, '--json'], env());
    expect(JSON.parse(suspended.stdout)).to.deep.equal({ account: account.accountId, sends_suspended: true });
    expectRefusal(await send(base()), 403, 'spammer');
    await cardsvc(['account', 'resume-sends', '--account', id, '--json'], env());
    expect((await send(base())).status).to.equal(200);
  });

  it('403 notindirectory when the widget requires senders from the directory', async () => {
    await stack.models.Widget.update({ dir_sender_must_be_in_directory: true }, { where: { id: widgetId } });
    expectRefusal(await send(base()), 403, 'notindirectory');
    await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email: 'sam@example.com' } });
    expect((await send(base())).status).to.equal(200);
    await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/deactivate', { key: account.liveKey, body: { email: 'sam@example.com' } });
    expectRefusal(await send(base()), 403, 'notindirectory');
  });

  it('429 limitReached with Retry-After when the key\'s rate limit is spent', async () => {
    // The hour's window: three requests straddle an hour's boundary far less often than a minute's.
    const app = await extraApp({ env: { RATE_LIMITS: 'free=1000/2,pro=600/50000,enterprise=3000/250000' } });
    await send(base(), { url: app.url });
    await send(base(), { url: app.url });
    const limited = await send(base(), { url: app.url });
    expectRefusal(limited, 429, 'limitReached');
    expect(Number(limited.headers.get('retry-after'))).to.be.greaterThan(0);
  });

  it('502 provider when SMTP refuses the message (5xx, not retried); the quota is given back', async () => {
    smtp.failNext(1, 550, 'Mailbox unavailable');
    const messages = expectRefusal(await send(base()), 502, 'provider');
    expect(messages[0]).to.match(/Mailbox unavailable/);
    const row = await stack.models.Send.findOne({ where: { account_id: account.accountId } });
    expect(row).to.deep.include({ status: 'failed', emails_sent: 0 });
    expect((await stack.models.QuotaUsage.findOne({ where: { account_id: account.accountId } }))!.used).to.equal(0);
  });

  it('a temporary SMTP failure (4xx) is retried and the email goes out once', async () => {
    smtp.failNext(1, 451, 'Try again later');
    const body = base();
    const res = await send(body);
    expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
    expect(smtp.to(body.recipientEmail)).to.have.length(1);
  });

  it('403 wouldexceedlimit: the month\'s quota counts every accepted email, and a new month starts afresh', async () => {
    let clock = new Date('2026-01-31T23:59:00.000Z');
    const app = await extraApp({ now: () => clock, env: { PLAN_EMAILS: 'free=3,pro=5000,enterprise=100000' } });
    expect((await send({ ...base(), recipientName: ['A', 'B'], recipientEmail: [address('a'), address('b')] }, { url: app.url })).status).to.equal(200);
    expectRefusal(await send({ ...base(), recipientName: ['C', 'D'], recipientEmail: [address('c'), address('d')] }, { url: app.url }), 403, 'wouldexceedlimit');
    expect((await send(base(), { url: app.url })).status).to.equal(200);
    expectRefusal(await send(base(), { url: app.url }), 403, 'wouldexceedlimit');
    // Share links count for nothing.
    expect((await send({ ...base(), type: 'ecard_copy_link' }, { url: app.url })).status).to.equal(200);
    clock = new Date('2026-02-01T00:00:01.000Z');
    expect((await send(base(), { url: app.url })).status).to.equal(200);
    const usage = await stack.models.QuotaUsage.findAll({ where: { account_id: account.accountId }, order: [['month', 'ASC']] });
    expect(usage.map((u) => [u.month, u.used])).to.deep.equal([
      ['2026-01', 3],
      ['2026-02', 1],
    ]);
  });

  it('200 concurrent scheduled sends of one account at a quota of 150: exactly 150 accepted, 50 wouldexceedlimit, no 5xx', async function () {
    this.timeout(120_000);
    const app = await extraApp({
      env: { PLAN_EMAILS: 'free=150,pro=5000,enterprise=100000', RATE_LIMITS: 'free=100000/1000000,pro=100000/1000000,enterprise=100000/1000000' },
    });
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const answers = await Promise.all(Array.from({ length: 200 }, () => send({ ...base(), sendAt }, { url: app.url })));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s >= 500), JSON.stringify(answers.filter((res) => res.status >= 500).map((res) => res.body))).to.deep.equal([]);
    expect(answers.filter((res) => res.status === 200 && res.body.status === 'scheduled')).to.have.length(150);
    const refused = answers.filter((res) => res.status !== 200);
    expect(refused).to.have.length(50);
    for (const res of refused) expectRefusal(res, 403, 'wouldexceedlimit');
    expect(await sendsOf()).to.equal(150);
    const month = sendAt.slice(0, 7);
    const usage = await stack.models.QuotaUsage.findOne({ where: { account_id: account.accountId, month }, rejectOnEmpty: true });
    expect(usage.used).to.equal(150);
    // Cancel them, so 150 scheduled workflows do not wait in the suite's Temporal server for an hour.
    for (const res of answers.filter((r) => r.status === 200)) {
      await call(app.url, 'POST', '/v2/api/pub/ecard-actions/cancel-send', { key: account.liveKey, body: { sendId: res.body.sendId } });
    }
  });

  it('accepts without an account lock: repeated keys racing member changes and cancels of one account keep one send per key and the quota exact', async function () {
    this.timeout(120_000);
    const app = await extraApp({ env: { RATE_LIMITS: 'free=100000/1000000,pro=100000/1000000,enterprise=100000/1000000' } });
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const early = await Promise.all(Array.from({ length: 10 }, () => send({ ...base(), sendAt }, { url: app.url })));
    // 30 keys, each sent three times at once; 20 member upserts (account-locked writers with events); 10 cancels.
    const keyed = Array.from({ length: 30 }, (_, i) => ({ key: `mixed-${process.pid}-${counter}-${i}`, body: { ...base(), sendAt } }));
    const answers = await Promise.all([
      ...keyed.flatMap(({ key, body }) => [0, 1, 2].map(() => send(body, { url: app.url, headers: { 'Idempotency-Key': key } }))),
      ...Array.from({ length: 20 }, (_, i) =>
        call(app.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email: `racer-${i}-${process.pid}@example.com`, first_name: 'R' } }),
      ),
      ...early.map((res) => call(app.url, 'POST', '/v2/api/pub/ecard-actions/cancel-send', { key: account.liveKey, body: { sendId: res.body.sendId } })),
    ]);
    expect(answers.filter((res) => res.status !== 200).map((res) => [res.status, res.body])).to.deep.equal([]);
    const sendIds = answers.slice(0, 90).map((res) => res.body.sendId as string);
    for (let i = 0; i < 30; i++) expect(new Set(sendIds.slice(i * 3, i * 3 + 3)).size, `key ${i}`).to.equal(1);
    expect(new Set(sendIds).size).to.equal(30);
    expect(await sendsOf()).to.equal(40);
    expect(await stack.models.IdempotencyKey.count({ where: { account_id: account.accountId } })).to.equal(30);
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(20);
    const usage = await stack.models.QuotaUsage.findOne({ where: { account_id: account.accountId, month: sendAt.slice(0, 7) }, rejectOnEmpty: true });
    expect(usage.used, 'the 30 kept, the 10 canceled given back').to.equal(30);
    for (const id of new Set(sendIds)) await call(app.url, 'POST', '/v2/api/pub/ecard-actions/cancel-send', { key: account.liveKey, body: { sendId: id } });
  });

  it('Idempotency-Key: 10 concurrent identical requests make one send and one email; another body with the key is 422', async () => {
    const body = base();
    const headers = { 'Idempotency-Key': `key-${process.pid}-${counter}` };
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(body, { headers })));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).to.equal(200);
    expect(new Set(answers.map((a) => a.body.sendId)).size).to.equal(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.to(body.recipientEmail)).to.have.length(1);
    expect(await sendsOf()).to.equal(1);
    expect((await stack.models.QuotaUsage.findOne({ where: { account_id: account.accountId } }))!.used).to.equal(1);
    const later = await send(body, { headers });
    expect(later.body).to.deep.include({ success: true, sendId: answers[0]!.body.sendId, emailsSent: 1 });
    expectRefusal(await send({ ...body, senderName: 'Someone else' }, { headers }), 422, 'idempotency_mismatch');
    expect(await sendsOf()).to.equal(1);
  });

  it('an Idempotency-Key older than 24 hours is free again: the same body makes a new send', async () => {
    let clock = new Date();
    const app = await extraApp({ now: () => clock });
    const body = base();
    const headers = { 'Idempotency-Key': `old-key-${process.pid}-${counter}` };
    const first = await send(body, { url: app.url, headers });
    clock = new Date(clock.getTime() + 23 * 3600_000);
    expect((await send(body, { url: app.url, headers })).body.sendId).to.equal(first.body.sendId);
    clock = new Date(clock.getTime() + 2 * 3600_000);
    const later = await send(body, { url: app.url, headers });
    expect(later.status, JSON.stringify(later.body)).to.equal(200);
    expect(later.body.sendId).not.to.equal(first.body.sendId);
    expect(await sendsOf()).to.equal(2);
  });
});
