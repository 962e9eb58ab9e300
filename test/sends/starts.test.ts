// A scheduled accept answers right after its commit; its workflow is started after the answer by the API process's
// send starter (services/sends/accept/starter.ts), in batches: every accepted send's workflow exists soon after, also when
// many are accepted at once, and each row is marked started.
import type { Client } from '@temporalio/client';
import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { createServices } from '../../app/services.ts';
import { createLogger } from '../../lib/logger.ts';
import { testConfig, testStack, type TestStack } from '../helpers/stack.ts';
import { testClient, workflowStatus } from '../helpers/temporal.ts';
import { sendWorkflowId } from '../../workflows/send-ecard/contract.ts';
import { sendEcard } from '../../services/sends/accept/send-ecard.ts';

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@example.com`;

describe('send starts: scheduled accepts are started after the answer', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let client: Client;
  let account: TestAccount;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    client = await testClient();
    const made = await accountWithWidget(stack, { plan: 'pro' });
    account = made.account;
    ecardId = made.ecard.id;
  });
  // An hour ahead: the workflows wait; each test cancels its sends at its end.
  const schedule = () =>
    call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: account.liveKey,
      body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: address('rita'), sendAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
  const cancel = (sendId: string) => call(stack.url, 'POST', '/v2/api/pub/ecard-actions/cancel-send', { key: account.liveKey, body: { sendId } });

  it('a scheduled accept answers scheduled; its workflow is running soon after and its row is marked started', async () => {
    const res = await schedule();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: true, status: 'scheduled', emailsSent: 0 });
    const sendId = res.body.sendId as string;
    expect(await eventually(() => workflowStatus(client, sendWorkflowId(account.accountId, sendId)), (s) => s !== null, 20_000, 50)).to.equal('RUNNING');
    const row = await eventually(() => stack.models.Send.findOne({ where: { send_id: sendId } }), (s) => s?.workflow_started === true, 10_000, 50);
    expect(row).to.deep.include({ status: 'scheduled', workflow_started: true });
    expect(expectSuccess(await cancel(sendId))).to.deep.include({ status: 'canceled' });
  });

  it('60 scheduled accepts at once: every one answered, every workflow running, every row marked started', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => schedule()));
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const sendIds = answers.map((res) => res.body.sendId as string);
    const statuses = await eventually(
      () => Promise.all(sendIds.map((id) => workflowStatus(client, sendWorkflowId(account.accountId, id)))),
      (all) => all.every((s) => s !== null),
      30_000,
      100,
    );
    expect(statuses.every((s) => s === 'RUNNING'), JSON.stringify(statuses)).to.equal(true);
    const marked = await eventually(() => stack.models.Send.count({ where: { send_id: sendIds, workflow_started: true } }), (n) => n === sendIds.length, 10_000, 50);
    expect(marked).to.equal(sendIds.length);
    for (const id of sendIds) expect((await cancel(id)).status).to.equal(200);
  });

  it('closing a process\'s services (twice at once, then again) starts the sends its starter still holds back, then marks them', async () => {
    const config = await testConfig({ SEND_STARTER_DELAY_MS: '600000' });
    const services = createServices({ config, logger: createLogger(config), models: stack.models, temporalAddress: config.temporal.address });
    const owner = (await stack.models.Account.findByPk(account.accountId))!;
    const send = await sendEcard(services, owner, {
      ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientNames: ['Rita'], recipientEmails: [address('rita')], sendAt: new Date(Date.now() + 3_600_000),
      share: false, widgetId: undefined, personalMessage: undefined, locale: undefined, mergeTags: undefined, overrideProps: undefined, idempotencyKey: undefined, requestHash: 'x',
    });
    expect(send.status).to.equal('scheduled');
    expect(await workflowStatus(client, sendWorkflowId(account.accountId, send.send_id)), 'held back').to.equal(null);
    // Closed twice at once (a signal handler and a hook may both ask): both wait for the one close.
    await Promise.all([services.close(), services.close()]);
    await services.close();
    expect(await workflowStatus(client, sendWorkflowId(account.accountId, send.send_id))).to.equal('RUNNING');
    expect(await send.reload()).to.deep.include({ workflow_started: true });
    expect(expectSuccess(await cancel(send.send_id))).to.deep.include({ status: 'canceled' });
  });
});
