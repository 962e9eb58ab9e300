// An automation firing under a real worker death: the worker is a child process (`node --import tsx bin/worker.ts`)
// on task queues of its own, killed with SIGKILL from the SMTP server while the firing sends; a new child finishes.
import { expect } from 'chai';
import { localDateOf } from '../../services/automations/local-date.ts';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { createFiringSchedule, firingZone, insertAutomation, startedFirings, triggerTimes } from '../helpers/automations.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testSmtpServer, type ReceivedMail } from '../helpers/smtp.ts';
import { testConfig, testEnv, testModels, testServices } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';
import { expectOncePerAddress, killDuringDelivery, startWorkerChild, type WorkerChild } from '../helpers/worker-child.ts';
import type { AutomationFiringResult } from '../../workflows/automation/contract.ts';
import type { Models } from '../../models/index.ts';

describe('automations: a worker killed with SIGKILL while a firing sends', function () {
  this.timeout(240_000);
  let models: Models;
  let account: TestAccount;
  let row: Awaited<ReturnType<typeof insertAutomation>>;
  const total = 600;
  let worker: WorkerChild | undefined;
  let received: ReceivedMail[];
  let stopListening = () => {};
  let firstExit: Awaited<WorkerChild['exited']>;
  let atKill: number;
  let result: AutomationFiringResult;

  after(async () => {
    stopListening();
    if (!worker) return;
    worker.child.kill('SIGTERM');
    await worker.exited;
  });

  // One kill while SMTP takes the 150th card, then a new worker that finishes; the checks below read what happened.
  before(async () => {
    models = await testModels();
    const smtp = await testSmtpServer();
    const client = await testClient();
    const taskQueue = `cardsvc-automation-crash-${process.pid}`;
    // One batch at a time, so one micro-batch (the pool's 5) is in flight when the worker dies.
    const settings = { TEMPORAL_TASK_QUEUE: taskQueue, BULK_CONCURRENCY: '1', BULK_BATCH_SIZE: '100', ACTIVITY_HEARTBEAT_SECONDS: '2', SMTP_POOL_SIZE: '5' };
    const env = await testEnv({ ...settings, LOG_LEVEL: 'warn' });
    // Services on the same task queues, for the Schedule's sync only.
    const services = await testServices(await testConfig(settings));
    const zone = firingZone();
    const today = localDateOf(new Date(), zone);
    account = await newAccount(models, 'pro');
    const widget = await insertWidget(models, account.accountId);
    const ecard = await insertEcard(models, account.accountId, widget.id);
    const domain = `autocrash${process.pid}.example.com`;
    const people = Array.from({ length: total }, (_, i) => ({
      account_id: account.accountId, email: `m${i}@${domain}`, employee_id: null, first_name: `M${i}`, last_name: null, job_position: null,
      date_of_birth: `1992-${today.slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null,
    }));
    for (let i = 0; i < total; i += 200) await models.TeamMember.bulkCreate(people.slice(i, i + 200));
    row = await insertAutomation(models, account.accountId, zone, ecard.id);
    const handle = await createFiringSchedule(services, row);

    const first = startWorkerChild(env);
    worker = first;
    ({ received, stop: stopListening } = killDuringDelivery(smtp, domain, first, 150));
    const [firingId] = await startedFirings(handle, 1, triggerTimes(handle, 1));
    firstExit = await first.exited;
    atKill = received.length;
    worker = startWorkerChild(env);
    result = (await client.workflow.getHandle(firingId!).result()) as AutomationFiringResult;
  });

  it('the worker dies while SMTP takes the 150th card', () => {
    expect(firstExit).to.equal('SIGKILL');
    expect(atKill).to.be.within(150, 154);
  });

  it('a new worker finishes the firing; the counts add up and at most one micro-batch is unknown', () => {
    expect(result.status, `worker output:\n${worker!.output()}`).to.equal('fired');
    const counts = result.counts!;
    expect(counts.failed).to.equal(0);
    expect(counts.skipped).to.equal(0);
    expect(counts.sent + counts.unknown).to.equal(total);
    expect(counts.unknown).to.be.at.most(5);
  });

  it('no member gets two cards, and everyone not in flight gets one', async () => {
    const counts = result.counts!;
    // By address: nobody twice; the sent ones exactly once; only the in-flight (unknown) ones may have none.
    const perAddress = expectOncePerAddress(received);
    const rows = await models.AutomationSend.findAll({ where: { automation_id: row.id } });
    expect(rows).to.have.length(total);
    const emailOf = new Map((await models.TeamMember.findAll({ where: { account_id: account.accountId } })).map((m) => [m.id, m.email]));
    for (const r of rows) {
      if (r.status === 'sent') expect(perAddress.get(emailOf.get(r.member_id)!), emailOf.get(r.member_id)).to.equal(1);
      else expect(r.status, emailOf.get(r.member_id)).to.equal('unknown');
    }
    expect(received.length).to.be.within(total - counts.unknown, total);
  });
});
