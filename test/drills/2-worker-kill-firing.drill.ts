// Drill: the worker SIGKILLed mid-firing of an automation (from the SMTP server); another worker finishes the firing.
import { expect } from 'chai';
import { localDateOf } from '../../services/automations/local-date.ts';
import type { AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { createFiringSchedule, firingZone, insertAutomation, startedFirings, triggerTimes } from '../helpers/automations.ts';
import { killDuringDelivery } from '../helpers/worker-child.ts';
import { expectPass, settled, startDrill, step, stopChildren } from './harness.ts';

describe('drill: worker SIGKILL mid-firing', function () {
  it('another worker finishes the firing: one email per member at most, the rest unknown, webhooks delivered', async () => {
    const drill = await startDrill({ settings: { BULK_CONCURRENCY: '1', BULK_BATCH_SIZE: '50', SMTP_POOL_SIZE: '5' } });
    const tenant = await drill.newTenant('firing');
    const { models } = drill;
    const accountId = tenant.account.accountId;
    const zone = firingZone();
    const today = localDateOf(new Date(), zone);
    const domain = `drill-firing-${process.pid}.example.com`;
    const total = 200;
    await models.TeamMember.bulkCreate(
      Array.from({ length: total }, (_, i) => ({
        account_id: accountId, email: `m${i}@${domain}`, employee_id: null, first_name: `M${i}`, last_name: null, job_position: null,
        date_of_birth: `1992-${today.slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null,
      })),
    );
    const row = await insertAutomation(models, accountId, zone, tenant.ecardId);
    const handle = await createFiringSchedule(drill.services(), row);

    const first = drill.startWorker();
    const { received, stop } = killDuringDelivery(drill.smtp, domain, first, 60);
    let second: ReturnType<typeof drill.startWorker> | undefined;
    try {
      const [firingId] = await startedFirings(handle, 1, triggerTimes(handle, 1));
      step(`firing ${firingId} started`);
      expect(await first.exited).to.equal('SIGKILL');
      step('worker killed');
      second = drill.startWorker();
      const result = (await drill.client.workflow.getHandle(firingId!).result()) as AutomationFiringResult;
      step(`firing ended: ${JSON.stringify(result)}`);
      expect(result.status, second.output()).to.equal('fired');
      const counts = result.counts!;
      expect(counts).to.include({ failed: 0, skipped: 0 });
      expect(counts.sent + counts.unknown).to.equal(total);
      expect(counts.unknown).to.be.at.most(5);
      await settled(models, accountId);
      await expectPass(models, tenant, drill.receiver, received);
      const sends = await models.AutomationSend.findAll({ where: { automation_id: row.id } });
      expect(sends).to.have.length(total);
      const emailOf = new Map((await models.TeamMember.findAll({ where: { account_id: accountId } })).map((m) => [m.id, m.email]));
      const got = new Set(received.map((m) => m.to[0]));
      expect(sends.filter((s) => s.status === 'sent' && !got.has(emailOf.get(s.member_id))).map((s) => s.member_id)).to.deep.equal([]);
      expect(sends.filter((s) => s.status !== 'sent' && s.status !== 'unknown').map((s) => s.status)).to.deep.equal([]);
    } finally {
      stop();
      // Later drills' reconcilers leave it alone.
      await row.update({ enabled: false });
      await handle.delete().catch(() => undefined);
      await stopChildren(second, drill.api);
    }
  });
});
