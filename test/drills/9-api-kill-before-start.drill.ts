// Drill: the API SIGKILLed after answering a scheduled accept and before its send starter started the workflow (the
// starter held back by SEND_STARTER_DELAY_MS): no workflow exists then; the worker's sweeper starts the committed
// send once the starter's grace has passed, and the card reaches the SMTP server exactly once, not before its time.
import { WorkflowNotFoundError } from '@temporalio/client';
import { expect } from 'chai';
import { STARTER_GRACE_MS } from '../../services/sends/accept/start.ts';
import { sendWorkflowId } from '../../workflows/send-ecard/contract.ts';
import { eventually } from '../helpers/eventually.ts';
import { expectPass, mailsTo, settled, startDrill, step, stopChildren } from './harness.ts';

describe('drill: the API killed between a scheduled accept and its workflow start', function () {
  it('no workflow at the kill; the sweeper starts it and the card arrives once, at its time', async () => {
    // The starter holds every send back for ten minutes: only the sweeper can start the scheduled send.
    const drill = await startDrill({ settings: { SEND_STARTER_DELAY_MS: '600000' } });
    const { models } = drill;
    const tenant = await drill.newTenant('starter');
    const domain = `drill-starter-${process.pid}.example.com`;
    const { received, stop } = mailsTo(drill.smtp, domain);
    const arrivals = new Map<string, number>();
    const stopTiming = drill.smtp.onMessage((mail) => arrivals.set(mail.to[0]!, Date.now()));
    const body = (to: string, extra: Record<string, unknown> = {}) => ({ ecardId: tenant.ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: to, ...extra });
    const worker = drill.startWorker();
    try {
      // The worker is up: an email-now send (started by the API itself, never held back) arrives.
      const first = await tenant.api('POST', '/pub/ecard-actions/send-ecard', body(`now@${domain}`));
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      await eventually(async () => received.length, (n) => n === 1, 120_000, 250);
      step('worker up');

      // Far enough ahead that the sweeper (after its grace) starts it before its time.
      const sendAt = new Date(Date.now() + STARTER_GRACE_MS + 20_000);
      const later = `later@${domain}`;
      const res = await tenant.api('POST', '/pub/ecard-actions/send-ecard', body(later, { sendAt: sendAt.toISOString() }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ status: 'scheduled', scheduled_to_be_sent_at: sendAt.toISOString() });
      const sendId = res.body.sendId as string;
      drill.api.child.kill('SIGKILL');
      expect(await drill.api.exited).to.equal('SIGKILL');
      step('API killed after the answer');

      // Committed, not started: Temporal has no such workflow.
      const row = await models.Send.findOne({ where: { send_id: sendId } });
      expect(row).to.deep.include({ status: 'scheduled', workflow_started: false });
      const described = await drill.client.workflow.getHandle(sendWorkflowId(tenant.account.accountId, sendId)).describe().then(() => 'exists', (err: unknown) => err);
      expect(described).to.be.instanceOf(WorkflowNotFoundError);

      // The worker's sweeper starts it; the card goes out once, at its time.
      await eventually(async () => arrivals.has(later), Boolean, 120_000, 250);
      expect(arrivals.get(later)).to.be.at.least(sendAt.getTime());
      await settled(models, tenant.account.accountId);
      await expectPass(models, tenant, drill.receiver, received);
      expect(received.map((m) => m.to[0])).to.have.members([`now@${domain}`, later]);
      expect(await row!.reload()).to.deep.include({ status: 'sent', workflow_started: true, emails_sent: 1 });
      expect(worker.child.exitCode, worker.output()).to.equal(null);
    } finally {
      stop();
      stopTiming();
      await stopChildren(worker, drill.api);
    }
  });
});
