import { expect } from 'chai';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

let counter = 0;
const address = (name: string) => `${name}-snap-${process.pid}-${++counter}@example.com`;

describe('sent cards keep working: usage of sends, and snapshots of the design', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const token = async (purpose: 'widget_delete' | 'ecard_delete_in_use', id: number) =>
    (await issueToken(stack, { accountId: account.accountId, purpose, resourceId: String(id), now: new Date() })).token;

  // A design with every envelope setting the page shows.
  async function design() {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { self_hosted_url: 'https://cdn.example.com/art.png' });
    await ecard.update({
      email_subject: 'For {{recipient_first_name}}',
      header: 'Accepted header',
      details: '<p>Accepted details for {{recipient_name}}</p>',
      envelope_bg_image_url: 'https://cdn.example.com/paper.jpg',
      envelope_audio_url: 'https://cdn.example.com/tune.mp3',
      envelope_color_settings: JSON.stringify({ background: '#123456', accent: '#abcdef' }),
      envelope_auto_open: true,
      url_redirect_after_send: 'https://example.com/thanks',
    });
    return { widget, ecard };
  }
  const send = (body: Record<string, unknown>) => api('POST', '/pub/ecard-actions/send-ecard', { senderEmail: 'sam@example.com', senderName: 'Sam', ...body });

  it('an eCard and its widget with send history are in use: 403 requires_otp with the sends in impact, nothing deleted; with the token, deleted', async () => {
    const { widget, ecard } = await design();
    const other = await insertEcard(stack.models, account.accountId, widget.id);
    const to = address('usage');
    expect((await send({ ecardId: ecard.id, recipientName: 'Una User', recipientEmail: to })).body).to.deep.include({ success: true, emailsSent: 1 });
    expect((await send({ ecardId: ecard.id, recipientName: 'Una User', type: 'ecard_copy_link' })).body).to.include({ success: true });

    const ecardRefused = await api('POST', '/ecard/deleteEcards', { ecardids: [ecard.id] });
    expectFailure(ecardRefused, 403, 'confirmation_required');
    expect(ecardRefused.body).to.deep.include({ requires_otp: true, otp_purpose: 'ecard_delete_in_use', impact: [{ id: ecard.id, campaigns: 0, automations: 0, sends: 2 }] });
    const widgetRefused = await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] });
    expectFailure(widgetRefused, 403, 'confirmation_required');
    expect(widgetRefused.body).to.deep.include({ requires_otp: true, otp_purpose: 'widget_delete', impact: [{ id: widget.id, ecards: 2, campaigns: 0, automations: 0, sends: 2 }] });
    expect(await stack.models.Ecard.count({ where: { widget_id: widget.id } })).to.equal(2);
    expect(await stack.models.Widget.count({ where: { id: widget.id } })).to.equal(1);

    // An eCard of the widget that was never sent is not in use.
    expect(expectSuccess(await api('POST', '/ecard/deleteEcards', { ecardids: [other.id] }))).to.deep.equal({ deleted: [other.id] });
    expect(expectSuccess(await api('POST', '/ecard/deleteEcards', { ecardids: [ecard.id], otp_confirmation_token: await token('ecard_delete_in_use', ecard.id) }))).to.deep.equal({ deleted: [ecard.id] });
    // The widget's history went with its eCard: it is no longer in use.
    expect(expectSuccess(await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] }))).to.deep.equal({ deleted: [widget.id] });
  });

  it('a widget in use is deleted with its token, eCards and all; another account’s sends never count', async () => {
    const { widget, ecard } = await design();
    await send({ ecardId: ecard.id, recipientName: 'Una', type: 'ecard_copy_link' });
    const stranger = await newAccount(stack.models);
    const theirs = await insertEcard(stack.models, stranger.accountId, (await insertWidget(stack.models, stranger.accountId)).id);
    expect(expectSuccess(await call(stack.url, 'POST', '/v2/api/ecard/deleteEcards', { key: stranger.liveKey, body: { ecardids: [theirs.id] } }))).to.deep.equal({ deleted: [theirs.id] });
    expect(expectSuccess(await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id], otp_confirmation_token: await token('widget_delete', widget.id) }))).to.deep.equal({ deleted: [widget.id] });
    expect(await stack.models.Ecard.count({ where: { id: ecard.id } })).to.equal(0);
  });

  it('the share page of an email send and of a share link still renders with its envelope, and opens, after the eCard and widget are deleted', async () => {
    const { widget, ecard } = await design();
    const emailed = await send({ ecardId: ecard.id, recipientName: 'Una User', recipientEmail: address('page') });
    expect(emailed.status, JSON.stringify(emailed.body)).to.equal(200);
    const shared = await send({ ecardId: ecard.id, recipientName: 'Sol Shared', type: 'ecard_copy_link' });
    expect(shared.status, JSON.stringify(shared.body)).to.equal(200);
    const emailedRow = (await stack.models.Send.findOne({ where: { send_id: emailed.body.sendId as string } }))!;

    expectSuccess(await api('POST', '/ecard/deleteEcards', { ecardids: [ecard.id], otp_confirmation_token: await token('ecard_delete_in_use', ecard.id) }));
    expectSuccess(await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] }));
    expect(await stack.models.Ecard.count({ where: { id: ecard.id } })).to.equal(0);

    for (const [statVanityId, name] of [[emailedRow.stat_vanity_id, 'Una User'], [shared.body.statVanityId as string, 'Sol Shared']] as const) {
      const res = await fetch(`${stack.url}/e/${statVanityId}`);
      expect(res.status, statVanityId).to.equal(200);
      const html = await res.text();
      expect(html).to.include('Accepted header').and.include(`Accepted details for ${name}`).and.include('https://cdn.example.com/art.png');
      expect(html).to.include('url("https://cdn.example.com/paper.jpg")').and.include('#123456').and.include('#abcdef');
      expect(html).to.include('<audio controls src="https://cdn.example.com/tune.mp3">');
      expect(html).to.include('class="envelope"').and.not.include('class="envelope sealed"');
      expect(html).to.include('href="https://example.com/thanks"');
      expect((await fetch(`${stack.url}/e/${statVanityId}/open`, { method: 'POST', redirect: 'manual' })).status).to.equal(303);
      const row = (await stack.models.Send.findOne({ where: { stat_vanity_id: statVanityId } }))!;
      expect(row.opened_at).to.be.instanceOf(Date);
    }
  });

  it('a scheduled send goes out as accepted though its design is edited, and another though its design is deleted, before its time', async () => {
    const edited = await design();
    const deleted = await design();
    const sendAt = new Date(Date.now() + 4000).toISOString();
    const [toEdited, toDeleted] = [address('edited'), address('deleted')];
    const first = await send({ ecardId: edited.ecard.id, recipientName: 'Eda Edited', recipientEmail: toEdited, sendAt });
    const second = await send({ ecardId: deleted.ecard.id, recipientName: 'Dee Deleted', recipientEmail: toDeleted, sendAt });
    expect(first.body).to.deep.include({ success: true, status: 'scheduled' });
    expect(second.body).to.deep.include({ success: true, status: 'scheduled' });

    expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: edited.ecard.id, emailSubject: 'Changed subject', header: 'Changed header', details: '<p>Changed</p>' } }));
    expectSuccess(await api('POST', '/widget/deleteWidgets', { widgetids: [deleted.widget.id], otp_confirmation_token: await token('widget_delete', deleted.widget.id) }));

    for (const [to, name] of [[toEdited, 'Eda'], [toDeleted, 'Dee']] as const) {
      const [mail] = await eventually(async () => smtp.to(to), (l) => l.length > 0, 20_000);
      expect(mail!.subject).to.equal(`For ${name}`);
      expect(mail!.html).to.include('Accepted header').and.include('Accepted details for').and.include('https://cdn.example.com/art.png');
      expect(mail!.html).not.to.include('Changed');
    }
    for (const res of [first, second]) {
      const row = await eventually(() => stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }), (s) => s?.status === 'sent');
      expect(row).to.deep.include({ status: 'sent', emails_sent: 1 });
    }
  });
});
