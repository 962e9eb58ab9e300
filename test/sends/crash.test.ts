import { expect } from 'chai';
import { startWorker } from '../../app/runtime.ts';
import { createMailTransport, type MailTransport } from '../../services/mail/transport.ts';
import { OUTCOME_UNKNOWN } from '../../services/sends/dispatch.ts';
import { startSendWorkflow } from '../../workflows/send-ecard/lifecycle.ts';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertSend, insertWidget } from '../helpers/catalog.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testConfig, testServices, testStack } from '../helpers/stack.ts';
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
    sendMany: (mails, options) => real.sendMany(mails, options),
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
      const worker = await startWorker(await testServices(config, { mail: dyingOnce(real, moment) }), { background: false });
      const account = await newAccount(stack.models);
      const widget = await insertWidget(stack.models, account.accountId);
      const ecard = await insertEcard(stack.models, account.accountId, widget.id);
      const to = `crash-${moment}-${Date.now()}@example.com`;
      const send = await insertSend(stack.models, ecard, to, { workflowStarted: true });
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
