import { expect } from 'chai';
import { createLogger } from '../../lib/logger.ts';
import { randomId } from '../../lib/ids.ts';
import { startWorker } from '../../lib/runtime.ts';
import { createMailTransport, type MailTransport } from '../../services/mail/transport.ts';
import { OUTCOME_UNKNOWN } from '../../services/sends/dispatch.ts';
import { startSendWorkflow } from '../../workflows/send-ecard/lifecycle.ts';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testConfig, testStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';

// The email activity dies once at the given moment (as a killed worker would: nothing after it runs), then
// Temporal retries it on a healthy worker.
function dyingOnce(real: MailTransport, moment: 'before' | 'after'): MailTransport {
  let died = false;
  return {
    async send(mail, options) {
      if (!died && moment === 'before') {
        died = true;
        throw new Error('worker killed before the hand-over');
      }
      await real.send(mail, options);
      if (!died) {
        died = true;
        throw new Error('worker killed after SMTP accepted the message');
      }
    },
    close: () => real.close(),
  };
}

describe('send-ecard: a worker that dies around the SMTP hand-over', function () {
  this.timeout(60_000);

  for (const moment of ['after', 'before'] as const) {
    it(`dies ${moment} the hand-over: ${moment === 'after' ? 'exactly one email' : 'no email'}, the recipient "outcome unknown", never two`, async () => {
      const stack = await testStack();
      const smtp = await testSmtpServer();
      // A queue of its own whose worker sends through the dying transport; its send is marked started, so the
      // stack's own sweeper leaves it alone.
      const config = await testConfig({ TEMPORAL_TASK_QUEUE: `crash-${process.pid}-${moment}-${Date.now()}` });
      const real = createMailTransport(stack.models, config.mail);
      const worker = await startWorker(config, createLogger(config), stack.models, stack.temporalAddress, { drainOutbox: false, mailTransport: dyingOnce(real, moment) });
      const account = await newAccount(stack.models);
      const widget = await insertWidget(stack.models, account.accountId);
      const ecard = await insertEcard(stack.models, account.accountId, widget.id);
      const to = `crash-${moment}-${Date.now()}@example.com`;
      const send = await stack.models.Send.create({
        send_id: crypto.randomUUID(),
        account_id: account.accountId,
        ecard_id: ecard.id,
        widget_id: widget.id,
        mode: 'email',
        status: 'pending',
        sandbox: false,
        sender_name: 'Sam',
        sender_email: 'sam@example.com',
        personal_message: null,
        locale: 'en',
        merge_tags: null,
        override_props: null,
        send_at: new Date(),
        stat_vanity_id: randomId(24),
        quota_month: null,
        quota_count: 0,
        workflow_started: true,
      });
      await stack.models.SendRecipient.create({ send_id: send.id, position: 1, recipient_name: 'Rita', recipient_email: to });
      try {
        const client = await testClient();
        await startSendWorkflow({ client, taskQueue: config.temporal.taskQueue }, account.accountId, send.send_id, 'pending', { sendPk: send.id, sendAtMs: Date.now() });
        const result = (await client.workflow.getHandle(`send/${account.accountId}/${send.send_id}`).result()) as { status: string; emailsSent: number };
        expect(result).to.deep.include({ status: 'failed', emailsSent: 0 });
      } finally {
        await worker.stop();
        real.close();
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(smtp.to(to)).to.have.length(moment === 'after' ? 1 : 0);
      const recipient = await stack.models.SendRecipient.findOne({ where: { send_id: send.id } });
      expect(recipient).to.deep.include({ status: 'failed', error: OUTCOME_UNKNOWN, message_id: `<${send.send_id}.1@cardsvc>` });
    });
  }
});
