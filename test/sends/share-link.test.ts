// A share link is published by its accept, with no workflow: its page opens the moment the link is answered (the
// key API's send-ecard and the widget), its send and recipient are `sent`; a share link left pending (its workflow
// started before accepts published, or its accept died before publishing) is published by the workflow's activity.
import type { Client } from '@temporalio/client';
import { expect } from 'chai';
import { randomId } from '../../lib/ids.ts';
import { designOf, saveSnapshot } from '../../services/sends/accept/snapshot.ts';
import { startSendWorkflow } from '../../workflows/send-ecard/lifecycle.ts';
import { sendWorkflowId } from '../../workflows/send-ecard/contract.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, type TestAccount } from '../helpers/api.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { testClient, workflowStatus } from '../helpers/temporal.ts';
import { postSend, sendBody } from '../widgets/send-helpers.ts';

describe('share links: published by the accept, no workflow', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let client: Client;
  let account: TestAccount;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    client = await testClient();
  });
  beforeEach(async () => {
    const made = await accountWithWidget(stack, { plan: 'pro' });
    account = made.account;
    await made.ecard.update({ details: '<p>Dear {{recipient_name}}, from {{sender_name}}</p>' });
    ecardId = made.ecard.id;
  });

  it('send-ecard: the page opens right after the answer; the send and its recipient are sent; no workflow was started', async () => {
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: account.liveKey,
      body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Friend', type: 'ecard_copy_link' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const page = await fetch(res.body.shareUrl as string);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include('Dear Friend, from Sam');
    const send = await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } });
    expect(send).to.deep.include({ mode: 'share', status: 'sent', emails_sent: 0, error: null, workflow_started: false });
    const recipients = await stack.models.SendRecipient.findAll({ where: { send_id: send!.id } });
    expect(recipients.map((r) => [r.status, r.recipient_name, r.finished_at])).to.deep.equal([['sent', 'Friend', null]]);
    expect(recipients[0]!.rendered_html).to.include('Dear Friend');
    expect(await workflowStatus(client, sendWorkflowId(account.accountId, send!.send_id))).to.equal(null);
    // The log shows the recipient sent, never emailed.
    const data = expectSuccess(await call(stack.url, 'GET', `/v2/api/pub/ecard-actions/sends/${send!.send_id}`, { key: account.liveKey })) as { sent_at: string | null; recipients: Array<Record<string, unknown>> };
    expect(data.sent_at).to.equal(null);
    expect(data.recipients[0]).to.deep.include({ status: 'sent', sent_at: null });
  });

  it('the widget: a share button\'s link opens right after the answer, with no workflow', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId);
    const res = await postSend(stack.url, widget.vanity_id, sendBody(stack, widget, ecards[0]!, { share_mode: 'ecard_copy_link', recipients: [{ name: 'Rita', email: '' }] }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((await fetch(res.body.shareUrl as string)).status).to.equal(200);
    const send = await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } });
    expect(send).to.deep.include({ mode: 'share', origin: 'widget', status: 'sent' });
    expect(await stack.models.SendRecipient.findAll({ where: { send_id: send!.id }, attributes: ['status'], raw: true })).to.deep.equal([{ status: 'sent' }]);
    expect(await workflowStatus(client, sendWorkflowId(account.accountId, send!.send_id))).to.equal(null);
  });

  it('a share link left pending is published by its workflow: the page opens, the send and recipient are sent', async () => {
    const ecard = (await stack.models.Ecard.findByPk(ecardId))!;
    const statVanityId = randomId(24);
    // What an accept that died before publishing leaves (and what a share link's workflow found before accepts published).
    const send = await stack.models.Send.create({
      send_id: crypto.randomUUID(), account_id: account.accountId, ecard_id: ecard.id, widget_id: ecard.widget_id, mode: 'share', status: 'pending',
      sandbox: false, sender_name: 'Sam', sender_email: 'sam@example.com', personal_message: null, locale: 'en', merge_tags: null,
      override_props: null, send_at: new Date(), stat_vanity_id: statVanityId, quota_month: null, quota_count: 0,
    });
    await stack.models.sequelize.transaction((transaction) => saveSnapshot(stack, send.id, designOf(ecard), transaction));
    await stack.models.SendRecipient.create({ send_id: send.id, position: 1, recipient_name: 'Pat', recipient_email: null, page_id: statVanityId });
    const shareUrl = `${stack.config.publicBaseUrl}/e/${statVanityId}`;
    expect((await fetch(shareUrl)).status).to.equal(404);
    await startSendWorkflow(stack.services.workflows!, account.accountId, send.send_id, 'pending', { sendPk: send.id, sendAtMs: send.send_at.getTime() });
    const result = (await client.workflow.getHandle(sendWorkflowId(account.accountId, send.send_id)).result()) as { status: string; emailsSent: number };
    expect(result).to.deep.include({ status: 'sent', emailsSent: 0 });
    expect((await fetch(shareUrl)).status).to.equal(200);
    expect(await send.reload()).to.deep.include({ status: 'sent', emails_sent: 0 });
    expect(await stack.models.SendRecipient.findAll({ where: { send_id: send.id }, attributes: ['status', 'finished_at'], raw: true })).to.deep.equal([{ status: 'sent', finished_at: null }]);
  });
});
