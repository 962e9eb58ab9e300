// Drill: the worker SIGKILLed mid-campaign (from the SMTP server, a micro-batch in flight); another worker finishes it.
import { expect } from 'chai';
import { eventually } from '../helpers/eventually.ts';
import { killDuringDelivery } from '../helpers/worker-child.ts';
import { expectPass, settled, startDrill, stopChildren } from './harness.ts';

describe('drill: worker SIGKILL mid-campaign', function () {
  it('another worker finishes it: one email per recipient at most, the rest unknown, webhooks delivered, the campaign final', async () => {
    // One batch at a time of 50, micro-batches of 5: one micro-batch is in flight when the worker dies.
    const drill = await startDrill({ settings: { BULK_CONCURRENCY: '1', BULK_BATCH_SIZE: '50', SMTP_POOL_SIZE: '5' } });
    const tenant = await drill.newTenant('campaign');
    const domain = `drill-campaign-${process.pid}.example.com`;
    const total = 200;
    const id = (await tenant.ok('POST', '/campaign/save', { campaign: { campaign_name: 'Drill', from_email: 'hr@example.com' } })).id as number;
    await tenant.ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [tenant.ecardId] });
    const rows = Array.from({ length: total }, (_, i) => ({ email: `r${i}@${domain}`, first_name: `R${i}` }));
    await tenant.ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: rows });

    const first = drill.startWorker();
    const { received, stop } = killDuringDelivery(drill.smtp, domain, first, 60);
    let second: ReturnType<typeof drill.startWorker> | undefined;
    try {
      expect((await tenant.ok('POST', '/campaign/send', { campaignid: id })).status).to.equal('sending');
      expect(await first.exited).to.equal('SIGKILL');
      second = drill.startWorker();
      const done = await eventually(
        () => tenant.ok('GET', `/campaign/findOne/id/${id}`),
        (c) => c.status === 'sent' || c.status === 'failed',
        120_000,
        1000,
      );
      expect(done.status, second.output()).to.equal('sent');
      const counts = done.counts as Record<'sent' | 'unknown' | 'failed' | 'pending', number>;
      expect(counts).to.include({ failed: 0, pending: 0 });
      expect(counts.sent + counts.unknown).to.equal(total);
      expect(counts.unknown).to.be.at.most(5);
      await settled(drill.models, tenant.account.accountId);
      await expectPass(drill.models, tenant, drill.receiver, received);
      // Everyone the campaign counts as sent got exactly one; only the in-flight micro-batch may have none.
      const sent = await drill.models.CampaignRecipient.findAll({ attributes: ['email', 'status'], where: { campaign_id: id }, raw: true });
      const got = new Set(received.map((m) => m.to[0]));
      expect(sent.filter((r) => r.status === 'sent' && !got.has(r.email)).map((r) => r.email)).to.deep.equal([]);
      expect(received.length).to.be.within(total - counts.unknown, total);
    } finally {
      stop();
      await stopChildren(second, drill.api);
    }
  });
});
