import { expect } from 'chai';
import { issueFormToken, readWidgetSession } from '../../services/widgets/public/tokens.ts';
import { addSuppression } from '../../services/sends/accept/rules.ts';
import { call, expectFailure, expectSuccess, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { extraApp, testStack, type ExtraApp, type TestStack } from '../helpers/stack.ts';

let counter = 0;
// A tag of this run and file: addresses (and so the limits and mail each test looks at) are never another test's.
const tag = crypto.randomUUID().slice(0, 8);
const address = (name: string) => `${name}-${tag}-${++counter}@example.com`;
// Each test speaks from IPs of its own (the limits count per IP across widgets): the app trusts X-Forwarded-For.
let ipCounter = 0;
const freshIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(++ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;

describe('widget sender verification: a mailed code for a widget session', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let app: ExtraApp;
  let clock: Date | null = null;
  let account: TestAccount;
  let ip: string;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
    app = await extraApp({ now: () => clock ?? new Date(), env: { TRUST_PROXY: 'true' } });
  });
  beforeEach(async () => {
    clock = null;
    ip = freshIp();
    account = await newAccount(stack.models, 'pro');
  });

  const keys = () => stack.services.dataKeys;
  const formToken = (widgetId: number) => issueFormToken(keys(), widgetId, clock ?? new Date());
  const post = (path: string, body: unknown, from = ip): Promise<ApiResponse> =>
    call(app.url, 'POST', `/v2/widget${path}`, { body, headers: { 'X-Forwarded-For': from } });
  const start = (widget: { id: number; vanity_id: string }, email: string, from = ip) =>
    post(`/${widget.vanity_id}/verify/start`, { form_token: formToken(widget.id), email }, from);
  const confirm = (widget: { vanity_id: string }, email: string, code: string) => post(`/${widget.vanity_id}/verify/confirm`, { email, code });
  const codeOf = (mail: { subject: string }) => /\b(\d{6})\b/.exec(mail.subject)![1]!;
  const mailTo = async (email: string, count = 1) => eventually(async () => smtp.to(email), (m) => m.length >= count, 10_000);
  const widgetOf = async (options: Parameters<typeof insertPublicWidget>[2] = {}) => (await insertPublicWidget(stack.models, account.accountId, options)).widget;
  /** Every start answers this, whatever happened. */
  const SENT = { sent: true };

  it('mails a 6-digit code in the widget’s language; the code gives a session readWidgetSession accepts, once', async () => {
    const widget = await widgetOf({ wconfig: { locale: 'fr' }, fields: { email_verification_required: true, dir_session_timeout_minutes: 45 } });
    const email = address('sam');
    expect(expectSuccess(await start(widget, email.toUpperCase()))).to.deep.equal(SENT);
    const [mail] = await mailTo(email);
    expect(mail!.subject).to.match(/^Votre code : \d{6}$/);
    const code = codeOf(mail!);
    expect(mail!.text).to.include(`Votre code pour envoyer une carte depuis ${widget.name} est ${code}. Il est valable 10 minutes.`);
    // Stored hashed: the row holds no code, and the queued mail's body is emptied once sent.
    const row = (await stack.models.WidgetVerification.findOne({ where: { widget_id: widget.id } }))!;
    expect(row.email).to.equal(email);
    expect(row.code_hash).to.match(/^[0-9a-f]{64}$/).and.not.include(code);
    expect(row.ip_hash).to.match(/^[0-9a-f]{64}$/).and.not.include(ip);
    const before = Date.now();
    const session = expectSuccess(await confirm(widget, email, code)) as { widget_session: string; expires_at: string };
    const expiresAt = Date.parse(session.expires_at);
    expect(expiresAt).to.be.within(before + 45 * 60_000 - 5_000, Date.now() + 45 * 60_000);
    expect(readWidgetSession(keys(), widget.id, session.widget_session, new Date())).to.deep.equal({ w: widget.id, e: email, m: null, x: expiresAt });
    // Another widget's session is not this one's, and it ends when it says.
    expect(readWidgetSession(keys(), widget.id + 1, session.widget_session, new Date())).to.equal(null);
    expect(readWidgetSession(keys(), widget.id, session.widget_session, new Date(expiresAt))).to.equal(null);
    // The code was spent.
    expect(expectFailure(await confirm(widget, email, code), 422, 'code_invalid')).to.have.length(1);
  });

  it('a wrong code counts down tries_left from 4; after five tries even the right code is 429', async () => {
    const widget = await widgetOf({ fields: { email_verification_required: true } });
    const email = address('guess');
    expectSuccess(await start(widget, email));
    const code = codeOf((await mailTo(email))[0]!);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (const left of [4, 3, 2, 1, 0]) {
      const res = await confirm(widget, email, wrong);
      expectFailure(res, 422, 'code_invalid');
      expect(res.body.tries_left).to.equal(left);
    }
    expectFailure(await confirm(widget, email, code), 429, 'code_tries_exhausted');
  });

  it('a code is good for 10 minutes (the clock moved): then 422 code_expired; never asked → code_expired too', async () => {
    const widget = await widgetOf({ fields: { email_verification_required: true } });
    const email = address('late');
    clock = new Date();
    expectSuccess(await start(widget, email));
    const code = codeOf((await mailTo(email))[0]!);
    clock = new Date(clock.getTime() + 10 * 60_000 + 1);
    expectFailure(await confirm(widget, email, code), 422, 'code_expired');
    expectFailure(await confirm(widget, address('never'), '123456'), 422, 'code_expired');
  });

  it('at most 3 codes per address per hour across widgets: the 4th answers alike, mails nothing and is logged', async () => {
    const one = await widgetOf();
    const other = await insertPublicWidget(stack.models, (await newAccount(stack.models)).accountId);
    const email = address('popular');
    expectSuccess(await start(one, email, freshIp()));
    expectSuccess(await start(other.widget, email, freshIp()));
    expectSuccess(await start(one, email, freshIp()));
    await mailTo(email, 3);
    const fourth = await start(other.widget, email, freshIp());
    expect(expectSuccess(fourth)).to.deep.equal(SENT);
    // A later code for another address reaches the server after anything the 4th could have queued.
    const witness = address('witness');
    expectSuccess(await start(one, witness, freshIp()));
    await mailTo(witness);
    expect(smtp.to(email)).to.have.length(3);
    expect(await stack.models.MailMessage.count({ where: { recipient: email } })).to.equal(3);
    const abuse = await stack.models.WidgetAbuseEvent.findAll({ where: { widget_id: other.widget.id } });
    expect(abuse.map((a) => a.kind)).to.deep.equal(['verify_email_limit']);
    // An hour later the address may have codes again.
    clock = new Date(Date.now() + 60 * 60_000 + 1_000);
    expectSuccess(await start(other.widget, email, freshIp()));
    await mailTo(email, 4);
  });

  it('at most 10 codes per client IP per hour across widgets: the 11th answers alike and mails nothing', async () => {
    const one = await widgetOf();
    const two = await widgetOf();
    const emails = Array.from({ length: 11 }, () => address('ip'));
    for (const [i, email] of emails.slice(0, 10).entries()) expectSuccess(await start(i % 2 ? one : two, email));
    await Promise.all(emails.slice(0, 10).map((e) => mailTo(e)));
    expect(expectSuccess(await start(one, emails[10]!))).to.deep.equal(SENT);
    // Another IP still gets its code (the limit is the IP's, not the widget's).
    const witness = address('witness');
    expectSuccess(await start(one, witness, freshIp()));
    await mailTo(witness);
    expect(smtp.to(emails[10]!)).to.deep.equal([]);
    expect(await stack.models.WidgetVerification.count({ where: { email: emails[10]! } })).to.equal(0);
    expect((await stack.models.WidgetAbuseEvent.findAll({ where: { widget_id: one.id } })).map((a) => a.kind)).to.deep.equal(['verify_ip_limit']);
  });

  it('a suppressed address gets the same answer and no mail; no code it could give works', async () => {
    const widget = await widgetOf({ fields: { email_verification_required: true } });
    const email = address('quiet');
    await addSuppression(stack.services, account.accountId, 'email', email);
    const res = await start(widget, email);
    expect(res.status).to.equal(200);
    expect(expectSuccess(res)).to.deep.equal(SENT);
    const witness = address('witness');
    expectSuccess(await start(widget, witness, freshIp()));
    await mailTo(witness);
    expect(smtp.to(email)).to.deep.equal([]);
    expect(await stack.models.MailMessage.count({ where: { recipient: email } })).to.equal(0);
    const res2 = await confirm(widget, email, '000000');
    expectFailure(res2, 422, 'code_invalid');
    expect(res2.body.tries_left).to.equal(4);
  });

  it('under the directory rule a stranger is mailed a code and refused only at confirm; a member’s session carries the member id', async () => {
    const widget = await widgetOf({ fields: { dir_sender_must_be_in_directory: true } });
    const stranger = address('stranger');
    expectSuccess(await start(widget, stranger));
    const code = codeOf((await mailTo(stranger))[0]!);
    expectFailure(await confirm(widget, stranger, code), 403, 'notindirectory');
    const memberEmail = address('member');
    const member = await stack.models.TeamMember.create({ account_id: account.accountId, email: memberEmail });
    expectSuccess(await start(widget, memberEmail));
    const memberCode = codeOf((await mailTo(memberEmail))[0]!);
    const session = expectSuccess(await confirm(widget, memberEmail, memberCode)) as { widget_session: string };
    expect(readWidgetSession(keys(), widget.id, session.widget_session, new Date())!.m).to.equal(member.id);
    // A deactivated member is not an active one.
    await member.update({ disabled: true });
    expectSuccess(await start(widget, memberEmail));
    const again = codeOf((await mailTo(memberEmail, 2))[1]!);
    expectFailure(await confirm(widget, memberEmail, again), 403, 'notindirectory');
  });

  it('refuses a stale or foreign form token (400 form_expired) and answers 404 for a private or unknown widget', async () => {
    const widget = await widgetOf();
    const email = address('stale');
    const old = issueFormToken(keys(), widget.id, new Date(Date.now() - 3 * 3600_000));
    expectFailure(await post(`/${widget.vanity_id}/verify/start`, { form_token: old, email }), 400, 'form_expired');
    expectFailure(await post(`/${widget.vanity_id}/verify/start`, { form_token: formToken(widget.id + 1), email }), 400, 'form_expired');
    expectFailure(await post(`/${widget.vanity_id}/verify/start`, { form_token: 'forged.token', email }), 400, 'form_expired');
    const hidden = await widgetOf();
    await hidden.update({ public_share_enabled: false });
    expectFailure(await start(hidden, email), 404, 'not_found');
    expectFailure(await confirm(hidden, email, '123456'), 404, 'not_found');
    expectFailure(await post('/nosuchwidget/verify/start', { form_token: formToken(widget.id), email }), 404, 'not_found');
    expect(await stack.models.WidgetVerification.count({ where: { email } })).to.equal(0);
  });

  it('refuses a malformed address or code (400) or a missing form token (422) without spending a try', async () => {
    const widget = await widgetOf();
    expectFailure(await post(`/${widget.vanity_id}/verify/start`, { form_token: formToken(widget.id), email: 'not-an-address' }), 400, 'invalid_parameter');
    expectFailure(await post(`/${widget.vanity_id}/verify/start`, { email: address('x') }), 422, 'missing_field');
    const email = address('typo');
    expectSuccess(await start(widget, email));
    await mailTo(email);
    for (const code of ['12345', '1234567', 'abcdef', '']) expectFailure(await confirm(widget, email, code), 400, 'invalid_parameter');
    expect((await stack.models.WidgetVerification.findOne({ where: { email } }))!.tries).to.equal(0);
  });
});
