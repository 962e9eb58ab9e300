// Drill: the SMTP server's onData kills the worker (SIGKILL) when a message has arrived, before it answers 250: the
// worker never hears the email left. After a restart nobody gets a second email (the send's claim makes the retry
// record "outcome unknown" instead), and every other send goes out.
import { expect } from 'chai';
import { OUTCOME_UNKNOWN } from '../../services/sends/delivery/delivery.ts';
import { killDuringDelivery } from '../helpers/worker-child.ts';
import { expectPass, settled, startDrill, stopChildren } from './harness.ts';

describe('drill: SMTP onData kills the worker before its 250', function () {
  it('at most one email per recipient after the restart; the interrupted ones end "outcome unknown", the rest sent', async () => {
    const drill = await startDrill();
    const tenant = await drill.newTenant('smtp-kill');
    const domain = `drill-smtp-${process.pid}.example.com`;
    const first = drill.startWorker();
    const { received, stop } = killDuringDelivery(drill.smtp, domain, first, 3);
    let second: ReturnType<typeof drill.startWorker> | undefined;
    try {
      for (let i = 0; i < 8; i++) {
        const res = await tenant.api('POST', '/pub/ecard-actions/send-ecard', { ecardId: tenant.ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: `R${i}`, recipientEmail: `r${i}@${domain}` });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      expect(await first.exited).to.equal('SIGKILL');
      second = drill.startWorker();
      await settled(drill.models, tenant.account.accountId);
      await expectPass(drill.models, tenant, drill.receiver, received);
      const sends = await drill.models.Send.findAll({ where: { account_id: tenant.account.accountId } });
      const recipients = await drill.models.SendRecipient.findAll({ where: { send_id: sends.map((s) => s.id) } });
      const got = new Set(received.map((m) => m.to[0]));
      // The third email arrived before the worker died: its recipient has it once and is recorded as unknown.
      expect(recipients.filter((r) => r.status === 'failed').map((r) => r.error)).to.include(OUTCOME_UNKNOWN);
      for (const r of recipients) {
        if (r.status === 'sent') expect(got.has(r.recipient_email!), r.recipient_email!).to.equal(true);
        else expect(r.error, r.recipient_email!).to.equal(OUTCOME_UNKNOWN);
      }
      expect(received.length).to.be.within(recipients.filter((r) => r.status === 'sent').length, recipients.length);
    } finally {
      stop();
      await stopChildren(second, drill.api);
    }
  });
});
