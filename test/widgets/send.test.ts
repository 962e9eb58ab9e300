// The widget's send through the real stack: emails at the SMTP server, the send row and its ecard_shared event,
// share links, the silent traps, the form token, idempotency, the eCard's and widget's 404s, the account's own
// rules (quota, suppression) and sender verification.
import { expect } from 'chai';
import { SHARE_TYPES } from '../../models/Send.ts';
import { billingMonth } from '../../services/sends/accept/quota.ts';
import { loadSnapshot } from '../../services/sends/accept/snapshot.ts';
import { issueWidgetSession } from '../../services/widgets/public/tokens.ts';
import { newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { address, formToken, postSend, sendBody } from './send-helpers.ts';

const SUCCESS_KEYS = ['success', 'messages', 'sendId', 'emailsSent', 'form_token'];

function expectRefusal(res: ApiResponse, status: number, code: string): string[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.include({ success: false, code });
  const messages = res.body.messages as string[];
  expect(messages).to.be.an('array').that.is.not.empty;
  return messages;
}

describe('widget send: POST /v2/widget/{vanity_id}/send', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let widget: Awaited<ReturnType<typeof insertPublicWidget>>['widget'];
  let ecard: Awaited<ReturnType<typeof insertPublicWidget>>['ecards'][number] | undefined;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
    ({ widget, ecards: [ecard] } = await insertPublicWidget(stack.models, account.accountId));
  });
  const send = (extra: Record<string, unknown> = {}) => postSend(stack.url, widget.vanity_id, sendBody(stack, widget, ecard!, extra));
  const sendsOf = () => stack.models.Send.findAll({ where: { account_id: account.accountId } });

  it("keeps the eCard's own brand in the send's design, else the account's default (the accept reads the brand by the eCard the widget read)", async () => {
    const brand = (name: string, defaultFor: number | null) =>
      stack.models.Brand.create({ account_id: account.accountId, default_for: defaultFor, name, logo_url: null, website: null, address: null, primary_color: null, accent_color: null, background_color: null, text_color: null, footer_text: null, social: { twitter: null, facebook: null, instagram: null, linkedin: null, youtube: null } });
    // An account has its default brand from its creation.
    const fallback = (await stack.models.Brand.findOne({ where: { default_for: account.accountId } })) ?? (await brand('Default', account.accountId));
    const own = await brand('Own', null);
    const brandOfLastSend = async () => {
      const [last] = await stack.models.Send.findAll({ where: { account_id: account.accountId }, order: [['id', 'DESC']], limit: 1 });
      return (await loadSnapshot(stack, last!.id))!.brand;
    };
    await stack.models.Ecard.update({ ecardbrandid: own.id }, { where: { id: ecard!.id } });
    expect((await send()).status).to.equal(200);
    expect(await brandOfLastSend()).to.include({ id: own.id, name: 'Own' });
    await stack.models.Ecard.update({ ecardbrandid: null }, { where: { id: ecard!.id } });
    expect((await send()).status).to.equal(200);
    expect(await brandOfLastSend()).to.include({ id: fallback.id, name: fallback.name });
    expect(fallback.id).to.not.equal(own.id);
  });

  describe('an email send to two recipients', () => {
    let res: ApiResponse;
    let to: string[];
    beforeEach(async () => {
      to = [address('ann'), address('ben')];
      res = await send({ recipients: [{ name: 'Ann', email: to[0] }, { name: 'Ben', email: to[1] }], optedIn: true });
    });

    it('answers the flat success with the emails accepted and a fresh form token', () => {
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.have.all.keys(...SUCCESS_KEYS);
      expect(res.body).to.deep.include({ success: true, messages: [], emailsSent: 2 });
      expect(res.body.form_token).to.be.a('string').and.not.equal('');
    });

    it('reaches both recipients, each email with List-Unsubscribe (one click, RFC 8058)', async () => {
      const mails = await eventually(async () => to.flatMap((a) => smtp.to(a)), (m) => m.length === 2, 20_000);
      for (const mail of mails) {
        expect(mail.headers['list-unsubscribe']).to.match(/^<http:\/\/127\.0\.0\.1:\d+\/u\/[0-9A-Za-z]{24}>$/);
        expect(mail.headers['list-unsubscribe-post']).to.equal('List-Unsubscribe=One-Click');
        // The footer shows the same link.
        expect(mail.text).to.contain(/^<(.+)>$/.exec(mail.headers['list-unsubscribe']!)![1]);
      }
    });

    it('one click on the link suppresses the address for the account', async () => {
      const [mail] = await eventually(async () => smtp.to(to[0]!), (m) => m.length === 1, 20_000);
      const link = /^<(.+)>$/.exec(mail!.headers['list-unsubscribe']!)![1]!;
      const clicked = await fetch(link, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(clicked.status).to.be.below(400);
      const suppressed = await stack.models.Suppression.findOne({ where: { account_id: account.accountId, kind: 'email', value: to[0]! } });
      expect(suppressed).to.not.equal(null);
    });

    it('stores one send of origin widget with its share type, opt-in and no member', async () => {
      const sends = await sendsOf();
      expect(sends).to.have.length(1);
      expect(sends[0]).to.deep.include({ send_id: res.body.sendId, origin: 'widget', share_type: 'email', opted_in: true, sender_member_id: null, mode: 'email' });
    });

    it('records ecard_shared with the share mode as its type, opted_in and sender_teammemberid', async () => {
      const event = await stack.models.OutboxEvent.findOne({ where: { account_id: account.accountId, event_type: 'ecard_shared' } });
      const body = JSON.parse(event!.payload) as Array<Record<string, unknown>>;
      expect(body.map((e) => e.recipient_email)).to.deep.equal(to);
      for (const element of body) expect(element).to.deep.include({ type: 'email', opted_in: true, sender_teammemberid: null });
    });

    it('counts the emails as send:email for the day', async () => {
      const counter = await stack.models.WidgetCounter.findOne({ where: { widget_id: widget.id, kind: 'send:email' } });
      expect(counter?.count).to.equal(2);
    });
  });

  it('an API send-ecard keeps its event as it was (no widget fields)', async () => {
    const res = await fetch(`${stack.url}/v2/api/pub/ecard-actions/send-ecard`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.liveKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ecardId: ecard!.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', type: 'ecard_copy_link' }),
    });
    expect(res.status).to.equal(200);
    const event = await stack.models.OutboxEvent.findOne({ where: { account_id: account.accountId, event_type: 'ecard_shared' } });
    const [element] = JSON.parse(event!.payload) as Array<Record<string, unknown>>;
    expect(element).to.include({ type: 'ecard_copy_link' });
    expect(element).not.to.have.any.keys('opted_in', 'sender_teammemberid');
  });

  for (const mode of SHARE_TYPES.filter((m) => m !== 'email')) {
    it(`share mode ${mode}: a share-link send of that type, answered with its card page URL`, async () => {
      const res = await send({ share_mode: mode, recipients: [{ name: 'Rita', email: '' }] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.have.all.keys('success', 'messages', 'sendId', 'shareUrl', 'statVanityId', 'form_token');
      const [row] = await sendsOf();
      expect(row).to.deep.include({ mode: 'share', origin: 'widget', share_type: mode });
      expect(res.body.shareUrl).to.equal(`${stack.config.publicBaseUrl}/e/${row!.stat_vanity_id}`);
      // The accept published it: the page is there the moment the link is answered.
      expect((await fetch(res.body.shareUrl as string)).status).to.equal(200);
      expect((await row!.reload()).status).to.equal('sent');
      const event = await stack.models.OutboxEvent.findOne({ where: { account_id: account.accountId, event_type: 'ecard_shared' } });
      expect((JSON.parse(event!.payload) as Array<Record<string, unknown>>)[0]).to.include({ type: mode, opted_in: false });
      const counter = await stack.models.WidgetCounter.findOne({ where: { widget_id: widget.id, kind: `send:${mode}` } });
      expect(counter?.count).to.equal(1);
    });
  }

  describe('the silent traps: answered exactly like a success, nothing sent', () => {
    const expectSilent = async (res: ApiResponse, kind: string) => {
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.have.all.keys(...SUCCESS_KEYS);
      expect(res.body).to.deep.include({ success: true, messages: [], emailsSent: 1 });
      expect(res.body.sendId).to.match(/^[0-9a-f-]{36}$/);
      expect(await sendsOf()).to.have.length(0);
      expect(await stack.models.Send.count({ where: { send_id: res.body.sendId as string } })).to.equal(0);
      const rows = await stack.models.WidgetAbuseEvent.findAll({ where: { widget_id: widget.id }, raw: true });
      expect(rows.map((r) => r.kind)).to.deep.equal([kind]);
      // The abuse row holds no personal data: its columns are ids, the kind and the time.
      expect(Object.keys(rows[0]!).sort()).to.deep.equal(['account_id', 'created_at', 'id', 'kind', 'widget_id']);
      const silent = await stack.models.WidgetCounter.findOne({ where: { widget_id: widget.id, kind: 'silent' } });
      expect(silent?.count).to.equal(1);
    };

    it('a filled honeypot (fax_number)', async () => {
      const to = address('honey');
      await expectSilent(await send({ fax_number: '+1 555 0100', recipients: [{ name: 'Rita', email: to }] }), 'honeypot');
      expect(smtp.to(to)).to.have.length(0);
    });

    it('a submit 1 second after the form token was issued', async () => {
      await expectSilent(await send({ form_token: formToken(stack, widget, 1000) }), 'too_fast');
    });

    it('a real success has the same keys', async () => {
      const res = await send();
      expect(res.body).to.have.all.keys(...SUCCESS_KEYS);
    });
  });

  describe('the form token', () => {
    it('forged → 400 form_expired with a fresh token', async () => {
      const good = formToken(stack, widget);
      const forged = `${good.split('.')[0]}.${Buffer.alloc(32, 1).toString('base64url')}`;
      const res = await send({ form_token: forged });
      expectRefusal(res, 400, 'form_expired');
      expect(res.body.form_token).to.be.a('string');
      expect(await sendsOf()).to.have.length(0);
    });

    it('another widget\'s → 400 form_expired', async () => {
      const other = await insertPublicWidget(stack.models, account.accountId);
      expectRefusal(await send({ form_token: formToken(stack, other.widget) }), 400, 'form_expired');
    });

    it('stale (issued more than 2 hours ago) → 400 form_expired', async () => {
      expectRefusal(await send({ form_token: formToken(stack, widget, 2 * 3600 * 1000 + 5000) }), 400, 'form_expired');
      expect(await sendsOf()).to.have.length(0);
    });

    it('the same token twice → one send; the second answer is the first send\'s', async () => {
      const body = sendBody(stack, widget, ecard!);
      const first = await postSend(stack.url, widget.vanity_id, body);
      const second = await postSend(stack.url, widget.vanity_id, { ...body, recipients: [{ name: 'Other', email: address('other') }] });
      expect(first.status).to.equal(200);
      expect(second.status).to.equal(200);
      expect(second.body.sendId).to.equal(first.body.sendId);
      expect(second.body.emailsSent).to.equal(1);
      expect(await sendsOf()).to.have.length(1);
    });
  });

  describe('which eCards a stranger may send', () => {
    it('a disabled eCard → 404', async () => {
      await ecard!.update({ disabled: true });
      expectRefusal(await send(), 404, 'not_found');
    });

    it('an eCard not published yet → 404', async () => {
      await ecard!.update({ publish_on: new Date(Date.now() + 3600_000) });
      expectRefusal(await send(), 404, 'not_found');
    });

    it('an expired eCard → 404', async () => {
      await ecard!.update({ expire_on: new Date(Date.now() - 1000) });
      expectRefusal(await send(), 404, 'not_found');
    });

    it('another widget\'s eCard → 404', async () => {
      const other = await insertPublicWidget(stack.models, account.accountId);
      expectRefusal(await send({ ecard: other.ecards[0]!.vanity_id }), 404, 'not_found');
    });

    it('a priced eCard → 422 payment_required, nothing sent', async () => {
      await ecard!.update({ price: 2.5 });
      expectRefusal(await send(), 422, 'payment_required');
      expect(await sendsOf()).to.have.length(0);
    });
  });

  describe('which widgets answer: every other one is the same 404', () => {
    const expectSame404 = (res: ApiResponse) => {
      expectRefusal(res, 404, 'not_found');
      expect(res.body.messages).to.deep.equal(['No public widget here']);
    };
    it('a widget that is not public', async () => {
      await widget.update({ public_share_enabled: false });
      expectSame404(await send());
    });
    it('an unknown widget', async () => {
      expectSame404(await postSend(stack.url, 'nope-no-such-widget', sendBody(stack, widget, ecard!)));
    });
    it('a campaign-backed widget', async () => {
      await widget.update({ is_campaign: true });
      expectSame404(await send());
    });
    // The widget, its eCard and the account are one statement: its comparisons are the models' (case-sensitive), and
    // its refusals come in the order of the reads it replaced (the widget, the form token, then the eCard).
    it('a widget\'s vanity id in another case', async () => {
      const flipped = widget.vanity_id.replace(/[a-z]/i, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
      expectSame404(await postSend(stack.url, flipped, sendBody(stack, widget, ecard!)));
    });
    it('an eCard\'s vanity id in another case is no eCard of the widget (404)', async () => {
      const flipped = ecard!.vanity_id.replace(/[a-z]/i, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
      expectRefusal(await send({ ecard: flipped }), 404, 'not_found');
    });
    it('an unknown eCard with a forged form token is form_expired: the token is checked before the eCard', async () => {
      expectRefusal(await send({ ecard: 'no-such-card', form_token: 'forged.token' }), 400, 'form_expired');
    });
  });

  describe('the account\'s own rules, through the widget', () => {
    it('the month\'s quota exhausted → 403 wouldexceedlimit, and the widget\'s limits are given back', async () => {
      const month = billingMonth(new Date());
      await stack.models.QuotaUsage.create({ account_id: account.accountId, month, used: stack.config.emailsPerMonth.free });
      expectRefusal(await send(), 403, 'wouldexceedlimit');
      expect(await sendsOf()).to.have.length(0);
      expect(await stack.models.WidgetSendWindow.count({ where: { widget_id: widget.id } })).to.equal(0);
      // The day's send counter is counted in the send's transaction, after the limits and before the quota: the
      // quota's refusal rolls it back (a count taken before the accept, outside its transaction, would stand here).
      expect(await stack.models.WidgetCounter.count({ where: { widget_id: widget.id, kind: 'send:email' } })).to.equal(0);
    });

    it('a suppressed recipient → 403 blocked', async () => {
      const to = address('gone');
      await stack.models.Suppression.create({ account_id: account.accountId, kind: 'email', value: to, created_at: new Date() });
      expectRefusal(await send({ recipients: [{ name: 'Gone', email: to }] }), 403, 'blocked');
      expect(await sendsOf()).to.have.length(0);
    });
  });

  describe('malformed bodies → 400 invalid_parameter (a missing field 422 missing_field), nothing sent', () => {
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['no form_token', { form_token: undefined }, 422, 'missing_field'],
      ['an unknown share_mode', { share_mode: 'carrier_pigeon' }, 400, 'invalid_parameter'],
      ['a sendAt that is no ISO instant', { sendAt: 'tomorrow' }, 400, 'invalid_parameter'],
      ['no sender email', { sender: { name: 'Sam', email: '' } }, 422, 'missing_field'],
      ['a personal message over 20,000 characters', { personalMessage: 'x'.repeat(20_001) }, 400, 'invalid_parameter'],
      ['recipients not an array', { recipients: { name: 'Rita', email: 'rita@example.com' } }, 400, 'invalid_parameter'],
    ];
    for (const [name, extra, status, code] of cases) {
      it(`${name} → ${status} ${code}`, async () => {
        expectRefusal(await send(extra), status, code);
        expect(await sendsOf()).to.have.length(0);
      });
    }

    it('a malformed recipient address → 400 finvalid; a malformed sender → 400 einvalid', async () => {
      expectRefusal(await send({ recipients: [{ name: 'R', email: 'not-an-address' }] }), 400, 'finvalid');
      expectRefusal(await send({ sender: { name: 'S', email: 'nope@' } }), 400, 'einvalid');
    });
  });

  describe('the form\'s rules', () => {
    it('more recipients than wconfig.maxRecipients → 400 toomany', async () => {
      await widget.update({ wconfig: { maxRecipients: 2 } });
      const recipients = [1, 2, 3].map((i) => ({ name: `R${i}`, email: address(`r${i}`) }));
      expectRefusal(await send({ recipients }), 400, 'toomany');
    });

    it('no recipient for an email → 400 tooshort', async () => {
      expectRefusal(await send({ recipients: [] }), 400, 'tooshort');
    });

    it('a personal message is required unless the widget makes it optional', async () => {
      expectRefusal(await send({ personalMessage: '' }), 400, 'invalid_parameter');
      await widget.update({ wconfig: { personalMessageOptional: true } });
      expect((await send({ personalMessage: '' })).status).to.equal(200);
    });

    it('a card without a message box ignores the message', async () => {
      await ecard!.update({ personal_message_box: false });
      const res = await send({ personalMessage: 'ignored' });
      expect(res.status).to.equal(200);
      expect((await sendsOf())[0]!.personal_message).to.equal(null);
    });

    it('sendAt beyond wconfig.scheduleMaxDays → 400; within → scheduled', async () => {
      await widget.update({ wconfig: { scheduleMaxDays: 2 } });
      expectRefusal(await send({ sendAt: new Date(Date.now() + 3 * 86400_000).toISOString() }), 400, 'invalid_parameter');
      const at = new Date(Date.now() + 86400_000);
      const res = await send({ sendAt: at.toISOString() });
      expect(res.body).to.deep.include({ success: true, status: 'scheduled', scheduled_to_be_sent_at: at.toISOString(), emailsSent: 0 });
    });

    it('sendAt on a card that cannot be scheduled → 400', async () => {
      await ecard!.update({ can_schedule: false });
      expectRefusal(await send({ sendAt: new Date(Date.now() + 86400_000).toISOString() }), 400, 'invalid_parameter');
    });

    it('a forced predefined schedule wins over what was sent', async () => {
      const forced = new Date(Date.now() + 5 * 86400_000);
      forced.setUTCMilliseconds(0);
      await ecard!.update({ predefined_schedule_on: true, predefined_schedule_forced: true, predefined_schedule: forced });
      const res = await send();
      expect(res.body).to.deep.include({ status: 'scheduled', scheduled_to_be_sent_at: forced.toISOString() });
    });

    it('getReadReceipt is honoured only when wconfig.readReceiptEnabled', async () => {
      await send({ getReadReceipt: true });
      await widget.update({ wconfig: { readReceiptEnabled: true } });
      await send({ getReadReceipt: true });
      const sends = await stack.models.Send.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
      expect(sends.map((s) => s.notify_on_open)).to.deep.equal([false, true]);
    });
  });

  describe('the domain lists', () => {
    it('a recipient outside recipient_email_domains_whitelist → 400 finvalid naming the rule', async () => {
      await widget.update({ recipient_email_domains_whitelist: 'corp.example,\nexample.org' });
      const messages = expectRefusal(await send(), 400, 'finvalid');
      expect(messages[0]).to.contain('recipient_email_domains_whitelist').and.contain('corp.example, example.org');
      expect((await stack.models.WidgetAbuseEvent.findAll({ where: { widget_id: widget.id } })).map((r) => r.kind)).to.deep.equal(['domain']);
      expect((await send({ recipients: [{ name: 'In', email: address('in', 'EXAMPLE.org') }] })).status).to.equal(200);
    });

    it('a sender outside sender_email_domains_whitelist → 400 einvalid naming the rule', async () => {
      await widget.update({ sender_email_domains_whitelist: '@corp.example' });
      const messages = expectRefusal(await send(), 400, 'einvalid');
      expect(messages[0]).to.contain('sender_email_domains_whitelist').and.contain('corp.example');
      expect((await send({ sender: { name: 'Sam', email: address('sam', 'corp.example') } })).status).to.equal(200);
    });
  });

  describe('sender verification', () => {
    const session = (email: string, memberId: number | null, ttlMs = 600_000) =>
      issueWidgetSession(stack.services.dataKeys, { w: widget.id, e: email.toLowerCase(), m: memberId, x: Date.now() + ttlMs });

    it('email_verification_required: without a session → 422 verification_required', async () => {
      await widget.update({ email_verification_required: true });
      expectRefusal(await send(), 422, 'verification_required');
    });

    it('email_verification_required: a session for another address → 422 verification_required', async () => {
      await widget.update({ email_verification_required: true });
      expectRefusal(await send({ widget_session: session(address('someone'), null) }), 422, 'verification_required');
    });

    it('email_verification_required: an expired session → 422 verification_required', async () => {
      await widget.update({ email_verification_required: true });
      const sender = address('sam');
      expectRefusal(await send({ sender: { name: 'Sam', email: sender }, widget_session: session(sender, null, -1000) }), 422, 'verification_required');
    });

    it('email_verification_required: the sender\'s session → accepted', async () => {
      await widget.update({ email_verification_required: true });
      const sender = address('sam');
      expect((await send({ sender: { name: 'Sam', email: sender }, widget_session: session(sender, null) })).status).to.equal(200);
    });

    it('the directory rule: no session → 422 verification_required; with the member\'s session the send keeps the member id', async () => {
      await widget.update({ dir_sender_must_be_in_directory: true });
      const sender = address('member');
      const member = await stack.models.TeamMember.create({ account_id: account.accountId, email: sender, first_name: 'Mem', last_name: 'Ber' });
      expectRefusal(await send({ sender: { name: 'Mem', email: sender } }), 422, 'verification_required');
      const res = await send({ sender: { name: 'Mem', email: sender }, widget_session: session(sender, member.id) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((await sendsOf())[0]).to.deep.include({ sender_member_id: member.id });
      const event = await stack.models.OutboxEvent.findOne({ where: { account_id: account.accountId, event_type: 'ecard_shared' } });
      expect((JSON.parse(event!.payload) as Array<Record<string, unknown>>)[0]).to.include({ sender_teammemberid: member.id });
    });
  });
});
