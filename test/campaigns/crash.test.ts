// A campaign under a real worker death: the worker is a child process (`node --import tsx bin/worker.ts`) on task
// queues of its own, killed with SIGKILL from the SMTP server while it sends; a new child finishes the campaign.
import { expect } from 'chai';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { extraApp, testEnv, testStack } from '../helpers/stack.ts';
import { expectOncePerAddress, killDuringDelivery, startWorkerChild } from '../helpers/worker-child.ts';

type Json = Record<string, unknown>;

describe('campaigns: a worker killed with SIGKILL while it sends', function () {
  this.timeout(240_000);

  it('no recipient gets two emails; everyone not in flight gets one; unknown is at most one micro-batch; counts add up', async () => {
    const stack = await testStack();
    const smtp = await testSmtpServer();
    // One batch at a time, so one micro-batch (the pool's 5) is in flight when the worker dies.
    const settings = {
      TEMPORAL_TASK_QUEUE: `cardsvc-crash-${process.pid}`,
      BULK_CONCURRENCY: '1',
      BULK_BATCH_SIZE: '100',
      ACTIVITY_HEARTBEAT_SECONDS: '2',
      SMTP_POOL_SIZE: '5',
    };
    const app = await extraApp({ env: settings });
    const env = await testEnv({ ...settings, LOG_LEVEL: 'warn' });
    const account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const ok = async (path: string, body: unknown) => expectSuccess(await call(app.url, 'POST', `/v2/api${path}`, { key: account.liveKey, body })) as Json;
    const domain = `crash${process.pid}.example.com`;
    const total = 600;
    const id = (await ok('/campaign/save', { campaign: { campaign_name: 'Crash', from_email: 'hr@example.com' } })).id as number;
    await ok('/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] });
    const rows = Array.from({ length: total }, (_, i) => ({ email: `r${i}@${domain}`, first_name: `R${i}` }));
    await ok('/campaign/saveRecipients', { campaignid: id, csvRecipients: rows });

    let worker = startWorkerChild(env);
    const first = worker;
    const { received, stop: stopListening } = killDuringDelivery(smtp, domain, first, 150);
    try {
      expect((await ok('/campaign/send', { campaignid: id })).status).to.equal('sending');
      expect(await first.exited).to.equal('SIGKILL');
      const atKill = received.length;
      expect(atKill).to.be.within(150, 154);
      worker = startWorkerChild(env);
      const done = await eventually(
        async () => expectSuccess(await call(app.url, 'GET', `/v2/api/campaign/findOne/id/${id}`, { key: account.liveKey })) as Json,
        (c) => c.status === 'sent' || c.status === 'failed',
        180_000,
        250,
      );
      expect(done.status, `worker output:\n${worker.output()}`).to.equal('sent');
      const counts = done.counts as Record<'sent' | 'unknown' | 'failed' | 'pending', number>;
      expect(counts.failed).to.equal(0);
      expect(counts.pending).to.equal(0);
      expect(counts.sent + counts.unknown).to.equal(total);
      expect(counts.unknown).to.be.at.most(5);

      // By address: nobody twice; the sent ones exactly once; only the in-flight (unknown) ones may have none.
      const perAddress = expectOncePerAddress(received);
      const states = await stack.models.CampaignRecipient.findAll({ attributes: ['email', 'status'], where: { campaign_id: id }, raw: true });
      for (const r of states) {
        if (r.status === 'sent') expect(perAddress.get(r.email), r.email).to.equal(1);
        else expect(r.status, r.email).to.equal('unknown');
      }
      expect(received.length).to.be.within(total - counts.unknown, total);
    } finally {
      stopListening();
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });
});
