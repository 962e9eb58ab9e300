// Drill: a webhook receiver that stalls past WEBHOOK_TIMEOUT_MS on its first requests: the deliveries are retried and
// arrive, each event at least once and always under its own id and body.
import { expect } from 'chai';
import { expectPass, settled, startDrill, stopChildren } from './harness.ts';

describe('drill: a webhook receiver stalling past the timeout', function () {
  it('retries and delivers every event at least once, with a stable event id and body', async () => {
    const drill = await startDrill({ settings: { WEBHOOK_TIMEOUT_MS: '2000' } });
    const tenant = await drill.newTenant('stall');
    // The first two requests answer after 4 s (the attempt has given up at 2 s); the rest at once.
    drill.receiver.on(tenant.hookPath, (n) => (n <= 2 ? { status: 200, delayMs: 4000 } : { status: 200 }));
    const worker = drill.startWorker();
    try {
      for (let i = 0; i < 3; i++) {
        const res = await tenant.api('POST', '/pub/ecard-actions/send-ecard', { ecardId: tenant.ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: `R${i}`, type: 'ecard_copy_link' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      await settled(drill.models, tenant.account.accountId);
      await expectPass(drill.models, tenant, drill.receiver, []);
      const requests = drill.receiver.at(tenant.hookPath);
      expect(requests.length).to.be.at.least(5);
      // Each event's requests carry one body: a retry is the same event, not a new one.
      const bodies = new Map<string, Set<string>>();
      for (const r of requests) {
        const id = String(r.headers['x-svc-event-id']);
        bodies.set(id, (bodies.get(id) ?? new Set()).add(r.body));
      }
      expect(bodies.size).to.equal(3);
      for (const same of bodies.values()) expect(same.size).to.equal(1);
      const deliveries = await drill.models.WebhookDelivery.findAll({ attributes: ['id'], where: { account_id: tenant.account.accountId }, raw: true });
      const timedOut = await drill.models.WebhookAttempt.count({ where: { delivery_id: deliveries.map((d) => d.id), response_status: null } });
      expect(timedOut, 'attempts that timed out').to.be.at.least(2);
    } finally {
      await stopChildren(worker, drill.api);
    }
  });
});
