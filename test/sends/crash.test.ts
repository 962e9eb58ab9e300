// A send under a real worker death: the worker is a child process (`node --import tsx bin/worker.ts`) on a task
// queue of its own, killed with SIGKILL by the SMTP server either when the recipient is named (RCPT TO, before
// the hand-over) or when the message has arrived (after it, before the worker hears so). A new child takes over.
import { expect } from 'chai';
import { OUTCOME_UNKNOWN } from '../../services/sends/delivery/delivery.ts';
import { startSendWorkflow } from '../../workflows/send-ecard/lifecycle.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { insertSend } from '../helpers/catalog.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testEnv, testStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';
import { startWorkerChild } from '../helpers/worker-child.ts';

describe('send-ecard: a worker killed around the SMTP hand-over', function () {
  this.timeout(90_000);

  for (const moment of ['after', 'before'] as const) {
    it(`killed ${moment} the hand-over: ${moment === 'after' ? 'exactly one email' : 'no email'}, the recipient "outcome unknown", never two`, async () => {
      const stack = await testStack();
      const smtp = await testSmtpServer();
      const queue = `crash-${process.pid}-${moment}-${Date.now()}`;
      const env = await testEnv({ TEMPORAL_TASK_QUEUE: queue, ACTIVITY_HEARTBEAT_SECONDS: '2', LOG_LEVEL: 'warn' });
      const { account, ecard } = await accountWithWidget(stack);
      const to = `crash-${moment}-${Date.now()}@example.com`;
      // Marked started, so no sweeper starts it on another queue.
      const send = await insertSend(stack.models, ecard, to, { workflowStarted: true });
      const first = startWorkerChild(env);
      const kill = () => first.child.kill('SIGKILL');
      const stop =
        moment === 'before'
          ? smtp.onRecipient((address) => address === to && kill())
          : smtp.onMessage((mail) => mail.to.includes(to) && kill());
      let second: ReturnType<typeof startWorkerChild> | undefined;
      try {
        const client = await testClient();
        await startSendWorkflow({ client, taskQueue: queue }, account.accountId, send.send_id, 'pending', { sendPk: send.id, sendAtMs: Date.now(), heartbeatSeconds: 2 });
        expect(await first.exited).to.equal('SIGKILL');
        second = startWorkerChild(env);
        const result = (await client.workflow.getHandle(`send/${account.accountId}/${send.send_id}`).result()) as { status: string; emailsSent: number };
        expect(result, second.output()).to.deep.include({ status: 'failed', emailsSent: 0 });
      } finally {
        stop();
        second?.child.kill('SIGTERM');
        await second?.exited;
      }
      expect(smtp.to(to)).to.have.length(moment === 'after' ? 1 : 0);
      const recipient = await stack.models.SendRecipient.findOne({ where: { send_id: send.id } });
      expect(recipient).to.deep.include({ status: 'failed', error: OUTCOME_UNKNOWN, message_id: `<${send.send_id}.1@cardsvc>` });
    });
  }
});
