// A campaign under a real worker death: the worker is a child process (`node --import tsx bin/worker.ts`) on task
// queues of its own, killed with SIGKILL from the SMTP server while it sends; a new child finishes the campaign.
import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { apiClient, call, expectSuccess, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type ReceivedMail } from '../helpers/smtp.ts';
import { extraApp, testEnv, testStack, type TestStack } from '../helpers/stack.ts';
import { expectOncePerAddress, killDuringDelivery, startWorkerChild, type WorkerChild } from '../helpers/worker-child.ts';

type Json = Record<string, unknown>;

describe('campaigns: a worker killed with SIGKILL while it sends', function () {
  this.timeout(240_000);
  let stack: TestStack;
  let account: TestAccount;
  let id: number;
  const total = 600;
  let worker: WorkerChild | undefined;
  let received: ReceivedMail[];
  let stopListening = () => {};
  let sendStatus: unknown;
  let firstExit: Awaited<WorkerChild['exited']>;
  let atKill: number;
  let done: Json;

  after(async () => {
    stopListening();
    if (!worker) return;
    worker.child.kill('SIGTERM');
    await worker.exited;
  });

  // One kill while SMTP takes the 150th email, then a new worker that finishes; the checks below read what happened.
  before(async () => {
    stack = await testStack();
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
    const made = await accountWithWidget(stack, { plan: 'pro' });
    account = made.account;
    const { ecard } = made;
    const { ok } = apiClient(app, account.liveKey);
    const domain = `crash${process.pid}.example.com`;
    id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Crash', from_email: 'hr@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] });
    const rows = Array.from({ length: total }, (_, i) => ({ email: `r${i}@${domain}`, first_name: `R${i}` }));
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: rows });

    const first = startWorkerChild(env);
    worker = first;
    ({ received, stop: stopListening } = killDuringDelivery(smtp, domain, first, 150));
    sendStatus = (await ok('POST', '/campaign/send', { campaignid: id })).status;
    firstExit = await first.exited;
    atKill = received.length;
    worker = startWorkerChild(env);
    done = await eventually(
      async () => expectSuccess(await call(app.url, 'GET', `/v2/api/campaign/findOne/id/${id}`, { key: account.liveKey })) as Json,
      (c) => c.status === 'sent' || c.status === 'failed',
      180_000,
      250,
    );
  });

  it('the worker dies while SMTP takes the 150th email', () => {
    expect(sendStatus).to.equal('sending');
    expect(firstExit).to.equal('SIGKILL');
    expect(atKill).to.be.within(150, 154);
  });

  it('a new worker ends the campaign sent; the counts add up and at most one micro-batch is unknown', () => {
    expect(done.status, `worker output:\n${worker!.output()}`).to.equal('sent');
    const counts = done.counts as Record<'sent' | 'unknown' | 'failed' | 'pending', number>;
    expect(counts.failed).to.equal(0);
    expect(counts.pending).to.equal(0);
    expect(counts.sent + counts.unknown).to.equal(total);
    expect(counts.unknown).to.be.at.most(5);
  });

  it('no recipient gets two emails, and everyone not in flight gets one', async () => {
    const counts = done.counts as Record<'unknown', number>;
    // By address: nobody twice; the sent ones exactly once; only the in-flight (unknown) ones may have none.
    const perAddress = expectOncePerAddress(received);
    const states = await stack.models.CampaignRecipient.findAll({ attributes: ['email', 'status'], where: { campaign_id: id }, raw: true });
    for (const r of states) {
      if (r.status === 'sent') expect(perAddress.get(r.email), r.email).to.equal(1);
      else expect(r.status, r.email).to.equal('unknown');
    }
    expect(received.length).to.be.within(total - counts.unknown, total);
  });
});
