// Drill: an automation sending at each recipient's local time loses its worker between two zones: Tokyo's cards
// have gone, Berlin's firing is waiting for 09:00 in Berlin when the worker is SIGKILLed; the service clock (TEST_CLOCK,
// shared through the database) moves on, another worker starts, `wake` is signalled, and every card goes out once.
import { expect } from 'chai';
import { advanceTestClock, offsetClock, resetTestClock } from '../../services/clock.ts';
import { sendInstant } from '../../services/automations/local-date.ts';
import { AUTOMATION_FIRING_WORKFLOW, type AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { wakeSignal } from '../../workflows/shared/wake.ts';
import { insertAutomation } from '../helpers/automations.ts';
import { expectOncePerAddress } from '../helpers/worker-child.ts';
import { expectPass, mailsTo, settled, startDrill, step, stopChildren } from './harness.ts';

const DAY = 86_400_000;
const PER_ZONE = 25;

describe('drill: worker SIGKILL between two zones of a local-time automation', function () {
  it('every card still goes out exactly once, each zone at its own 09:00', async () => {
    const drill = await startDrill({ settings: { TEST_CLOCK: 'true', BULK_CONCURRENCY: '1', BULK_BATCH_SIZE: '10' } });
    const { models } = drill;
    await resetTestClock(models.sequelize);
    const clock = offsetClock(models.sequelize);
    const moveTo = async (at: Date) => advanceTestClock(models.sequelize, at.getTime() - (await clock.read()).getTime());
    const tenant = await drill.newTenant('zones');
    const accountId = tenant.account.accountId;
    const u = new Date((await clock.read()).getTime() + 2 * DAY).toISOString().slice(0, 10);
    const tokyoAt = sendInstant(u, '09:00', 'Asia/Tokyo');
    const berlinAt = sendInstant(u, '09:00', 'Europe/Berlin');
    const domain = `drill-zones-${process.pid}.example.com`;
    const zoneOf = (i: number) => (i < PER_ZONE ? 'Asia/Tokyo' : 'Europe/Berlin');
    await models.TeamMember.bulkCreate(
      Array.from({ length: 2 * PER_ZONE }, (_, i) => ({
        account_id: accountId, email: `m${i}@${domain}`, employee_id: null, first_name: `M${i}`, last_name: null, job_position: null,
        date_of_birth: `1992-${u.slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null, timezone: zoneOf(i),
      })),
    );
    const row = await insertAutomation(models, accountId, 'Europe/Berlin', tenant.ecardId, {
      timing_config: JSON.stringify({ send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: true }),
    });
    await moveTo(new Date(tokyoAt.getTime() - 3_600_000));

    const { received, stop } = mailsTo(drill.smtp, domain);
    const first = drill.startWorker();
    let second: ReturnType<typeof drill.startWorker> | undefined;
    try {
      // Each zone's firing for U, started early as a Schedule would start it at 09:00 there; both wait on the clock.
      const start = (zone: string, at: Date) =>
        drill.client.workflow.start(AUTOMATION_FIRING_WORKFLOW, {
          taskQueue: drill.env.TEMPORAL_TASK_QUEUE!,
          workflowId: `drill-zones-${row.id}-${zone}`,
          args: [{ accountId, automationId: row.id, zone, scheduledAt: at.toISOString() }],
        });
      const tokyo = await start('Asia/Tokyo', tokyoAt);
      const berlin = await start('Europe/Berlin', berlinAt);
      const pending = () => models.AutomationSend.count({ where: { automation_id: row.id, status: 'pending' } });
      for (let i = 0; (await pending()) < 2 * PER_ZONE; i++) {
        if (i > 600) throw new Error(`rows not found:\n${first.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      step('both zones planned and waiting');

      await moveTo(tokyoAt);
      await tokyo.signal(wakeSignal);
      const tokyoResult = (await tokyo.result()) as AutomationFiringResult;
      expect(tokyoResult).to.deep.include({ status: 'fired', firingDate: u });
      expect(tokyoResult.counts).to.deep.equal({ sent: PER_ZONE, failed: 0, unknown: 0, skipped: 0 });
      expect(received.filter((m) => Number(m.to[0]!.slice(1).split('@')[0]) >= PER_ZONE), 'Berlin before its 09:00').to.deep.equal([]);
      step('Tokyo sent; killing the worker while Berlin waits');

      first.child.kill('SIGKILL');
      expect(await first.exited).to.equal('SIGKILL');
      await moveTo(berlinAt);
      second = drill.startWorker();
      await berlin.signal(wakeSignal);
      const berlinResult = (await berlin.result()) as AutomationFiringResult;
      step(`Berlin ended: ${JSON.stringify(berlinResult)}`);
      expect(berlinResult, second.output()).to.deep.include({ status: 'fired', firingDate: u });
      expect(berlinResult.counts).to.deep.equal({ sent: PER_ZONE, failed: 0, unknown: 0, skipped: 0 });

      await settled(models, accountId);
      await expectPass(models, tenant, drill.receiver, received);
      const once = expectOncePerAddress(received);
      expect(once.size).to.equal(2 * PER_ZONE);
      const rows = await models.AutomationSend.findAll({ where: { automation_id: row.id }, order: [['member_id', 'ASC']] });
      expect(rows.map((r) => r.status)).to.deep.equal(Array(2 * PER_ZONE).fill('sent'));
      expect(rows.map((r) => r.zone)).to.deep.equal(Array.from({ length: 2 * PER_ZONE }, (_, i) => zoneOf(i)));
    } finally {
      stop();
      await row.update({ enabled: false });
      await resetTestClock(models.sequelize);
      await stopChildren(first, second, drill.api);
    }
  });
});
