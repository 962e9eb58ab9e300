// The widget's sending limits through the real stack: per client IP per 10 minutes, per widget per UTC day (the
// owner told once at 80 %), each refusal `limitReached` with a row in the owner's abuse log.
import { expect } from 'chai';
import { newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { ownerUser } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';
import { address, formToken, postSend, sendBody } from './send-helpers.ts';

const two = () => [{ name: 'A', email: address('a') }, { name: 'B', email: address('b') }];

function expectLimit(res: ApiResponse) {
  expect(res.status, JSON.stringify(res.body)).to.equal(429);
  expect(res.body).to.deep.include({ success: false, code: 'limitReached', reason: 'limitReached' });
  expect(Number(res.headers.get('retry-after'))).to.be.within(1, 86_400);
}

describe('widget send: per-IP and daily limits', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });
  const abuseKinds = async (widgetId: number) => (await stack.models.WidgetAbuseEvent.findAll({ where: { widget_id: widgetId }, order: [['id', 'ASC']] })).map((r) => r.kind);

  it('per client IP: at most limitEmailsPerSession emails per 10 minutes, then 429 limitReached', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { wconfig: { limitEmailsPerSession: 3 } });
    const send = (recipients: unknown[], headers: Record<string, string> = {}) => postSend(stack.url, widget.vanity_id, sendBody(stack, widget, ecards[0]!, { recipients }), headers);
    expect((await send(two())).status).to.equal(200);
    expectLimit(await send(two()));
    // One email is still left in the window.
    expect((await send(two().slice(0, 1))).status).to.equal(200);
    expectLimit(await send(two().slice(0, 1)));
    expect(await stack.models.Send.count({ where: { widget_id: widget.id } })).to.equal(2);
    expect(await abuseKinds(widget.id)).to.deep.equal(['ip_limit', 'ip_limit']);
    // The window row keeps a hash, never the address.
    const [row] = await stack.models.WidgetSendWindow.findAll({ where: { widget_id: widget.id }, raw: true });
    expect(row!.ip_hash).to.match(/^[0-9a-f]{64}$/);
    expect(row!.emails).to.equal(3);
  });

  it('per widget: at most dailySendCap emails per UTC day; the owner is emailed once at 80 %', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { wconfig: { dailySendCap: 5, limitEmailsPerSession: 500 } });
    const send = (n: number) => postSend(stack.url, widget.vanity_id, sendBody(stack, widget, ecards[0]!, { recipients: two().concat(two()).slice(0, n) }));
    expect((await send(3)).status).to.equal(200); // 3 of 5: below 80 %
    expect((await send(1)).status).to.equal(200); // 4 of 5: crosses 80 %
    expect((await send(1)).status).to.equal(200); // 5 of 5
    expectLimit(await send(1));
    expect(await stack.models.Send.count({ where: { widget_id: widget.id } })).to.equal(3);
    expect(await abuseKinds(widget.id)).to.deep.equal(['daily_cap']);
    const owner = await ownerUser(stack.models, account.accountId);
    const notices = await stack.models.MailMessage.findAll({ where: { account_id: account.accountId, kind: 'widget_daily_cap' } });
    expect(notices.map((n) => n.recipient)).to.deep.equal([owner.email]);
    const [mail] = await eventually(async () => smtp.to(owner.email), (m) => m.length > 0, 20_000, 100);
    expect(mail!.subject).to.contain('80 %');
  });

  it('concurrent sends never pass the daily cap, and exactly one notice is queued', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { wconfig: { dailySendCap: 10, limitEmailsPerSession: 500 } });
    const results = await Promise.all(
      Array.from({ length: 16 }, () => postSend(stack.url, widget.vanity_id, sendBody(stack, widget, ecards[0]!, { recipients: [{ name: 'R', email: address('r') }] }))),
    );
    expect(results.filter((r) => r.status === 200)).to.have.length(10);
    expect(results.filter((r) => r.status === 429)).to.have.length(6);
    const counter = await stack.models.WidgetCounter.findOne({ where: { widget_id: widget.id, kind: 'cap' } });
    expect(counter?.count).to.equal(10);
    expect(await stack.models.MailMessage.count({ where: { account_id: account.accountId, kind: 'widget_daily_cap' } })).to.equal(1);
  });

  describe('on a moved clock', () => {
    // Set from the start: the app's limiter reads the clock on its own timer too, before a test moves it.
    let clock = new Date();
    let app: Awaited<ReturnType<typeof extraApp>>;
    before(async () => {
      app = await extraApp({ now: () => clock });
    });

    const sendAt = (widget: Parameters<typeof formToken>[1], vanity: string, ecard: { vanity_id: string }) =>
      postSend(app.url, vanity, sendBody(stack, widget, ecard, { form_token: formToken(stack, widget, 10_000, clock.getTime()) }));

    it('the per-IP window starts afresh after 10 minutes', async () => {
      clock = new Date('2026-03-02T10:00:30.000Z');
      const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { wconfig: { limitEmailsPerSession: 1 } });
      expect((await sendAt(widget, widget.vanity_id, ecards[0]!)).status).to.equal(200);
      expectLimit(await sendAt(widget, widget.vanity_id, ecards[0]!));
      clock = new Date('2026-03-02T10:10:00.000Z');
      expect((await sendAt(widget, widget.vanity_id, ecards[0]!)).status).to.equal(200);
    });

    it('the daily cap starts afresh at midnight UTC', async () => {
      clock = new Date('2026-03-02T23:59:00.000Z');
      const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { wconfig: { dailySendCap: 1, limitEmailsPerSession: 500 } });
      expect((await sendAt(widget, widget.vanity_id, ecards[0]!)).status).to.equal(200);
      expectLimit(await sendAt(widget, widget.vanity_id, ecards[0]!));
      clock = new Date('2026-03-03T00:00:01.000Z');
      expect((await sendAt(widget, widget.vanity_id, ecards[0]!)).status).to.equal(200);
    });

    it('a form token issued by the real clock is stale 2 hours later (400 form_expired)', async () => {
      clock = new Date();
      const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId);
      const body = sendBody(stack, widget, ecards[0]!);
      clock = new Date(Date.now() + 2 * 3600 * 1000 + 1000);
      const res = await postSend(app.url, widget.vanity_id, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.deep.include({ success: false, code: 'form_expired' });
    });
  });
});
