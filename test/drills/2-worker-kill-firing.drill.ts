// Drill: the worker SIGKILLed mid-firing of an automation with 10,000 due members (from the SMTP server); another
// worker finishes the firing, and every member's card reaches the SMTP server exactly once.
import { expect } from 'chai';
import { localDateOf } from '../../services/automations/local-date.ts';
import type { AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { createFiringSchedule, firingZone, insertAutomation, startedFirings, triggerTimes } from '../helpers/automations.ts';
import { expectOncePerAddress, killDuringDelivery } from '../helpers/worker-child.ts';
import { expectPass, settled, startDrill, step, stopChildren } from './harness.ts';

const TOTAL = 10_000;
// The SMTP pool, so the size of a micro-batch.
const POOL = 25;
// Mid-firing and mid-batch (the ninth batch of 500), a whole number of micro-batches.
const KILL_AT = 4_250;

describe('drill: worker SIGKILL mid-firing', function () {
  this.timeout(900_000);

  it(`another worker finishes a firing of ${TOTAL} members: each card emailed exactly once, every row final, webhooks delivered`, async () => {
    // One batch (500, the default) at a time: when SMTP takes the KILL_AT-th card, a multiple of the micro-batch,
    // that card's whole micro-batch has arrived and nothing else is in flight (the next micro-batch is claimed only
    // after every result of this one). So the killed micro-batch's rows end `unknown` with their emails delivered,
    // and no card may be missing. Pro's monthly emails raised above the firing's.
    const drill = await startDrill({ settings: { BULK_CONCURRENCY: '1', SMTP_POOL_SIZE: String(POOL), PLAN_EMAILS: 'free=100,pro=100000,enterprise=100000' } });
    const tenant = await drill.newTenant('firing');
    const { models } = drill;
    const accountId = tenant.account.accountId;
    const zone = firingZone();
    const today = localDateOf(new Date(), zone);
    const domain = `drill-firing-${process.pid}.example.com`;
    for (let from = 0; from < TOTAL; from += 1000) {
      await models.TeamMember.bulkCreate(
        Array.from({ length: 1000 }, (_, j) => ({
          account_id: accountId, email: `m${from + j}@${domain}`, employee_id: null, first_name: `M${from + j}`, last_name: null, job_position: null,
          date_of_birth: `1992-${today.slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null,
        })),
      );
    }
    const row = await insertAutomation(models, accountId, zone, tenant.ecardId);
    const handle = await createFiringSchedule(drill.services(), row);

    const first = drill.startWorker();
    const { received, stop } = killDuringDelivery(drill.smtp, domain, first, KILL_AT);
    let second: ReturnType<typeof drill.startWorker> | undefined;
    try {
      const [firingId] = await startedFirings(handle, 1, triggerTimes(handle, 1));
      step(`firing ${firingId} started`);
      expect(await first.exited).to.equal('SIGKILL');
      step(`worker killed at ${received.length} cards`);
      second = drill.startWorker();
      const result = (await drill.client.workflow.getHandle(firingId!).result()) as AutomationFiringResult;
      step(`firing ended: ${JSON.stringify(result)}`);
      expect(result.status, second.output()).to.equal('fired');
      expect(result.found).to.deep.equal({ cards: TOTAL, digests: 0, missed: 0 });
      const counts = result.counts!;
      expect(counts).to.include({ failed: 0, skipped: 0 });
      expect(counts.sent + counts.unknown).to.equal(TOTAL);
      // Only the micro-batch in flight at the kill has no result.
      expect(counts.unknown).to.be.at.most(POOL);
      await settled(models, accountId, 180_000);
      await expectPass(models, tenant, drill.receiver, received);

      // At the SMTP server: one email per member, nobody missing, nobody twice.
      const perAddress = expectOncePerAddress(received);
      const members = await models.TeamMember.findAll({ attributes: ['email'], where: { account_id: accountId }, raw: true });
      expect(members.filter((m) => perAddress.get(m.email) !== 1).map((m) => m.email)).to.deep.equal([]);
      expect(received).to.have.length(TOTAL);
      // Every row final: sent, or unknown (its email left before the kill).
      const rows = await models.AutomationSend.findAll({ attributes: ['status'], where: { automation_id: row.id }, raw: true });
      expect(rows).to.have.length(TOTAL);
      const byStatus: Record<string, number> = {};
      for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      expect(byStatus).to.deep.equal({ sent: counts.sent, ...(counts.unknown ? { unknown: counts.unknown } : {}) });
    } finally {
      stop();
      // Later drills' reconcilers leave it alone.
      await row.update({ enabled: false });
      await handle.delete().catch(() => undefined);
      await stopChildren(second, drill.api);
    }
  });
});
