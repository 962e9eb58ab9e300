// P8: one firing of a birthday automation with its members due today, due members per second from the Schedule's
// trigger-now to the last email (Schedule, firing workflow, find-due, fan-out, claims, the worker process's SMTP
// pool), against the bare nodemailer pool of P4 sending as many messages to the same SMTP server, rounds
// alternated. The find-due step's own time (its activity, from the firing's history) is reported beside it.
import { setTimeout as sleep } from 'node:timers/promises';
import { lastPassedDate, localDateOf } from '../services/automations/local-date.ts';
import { createAccount } from '../services/accounts.ts';
import { automationScheduleId } from '../workflows/automation/contract.ts';
import { syncAutomationSchedule } from '../services/automations/schedule.ts';
import { alternatedRounds, bareNodemailerRound, benchEcard, type Pair } from './harness.ts';
import type { BenchContext } from './stack.ts';

// A zone whose send time (one minute before midnight) has not come yet today, so the Schedule never fires by
// itself during the run; the firing comes from trigger-now.
const TIMEZONE = 'UTC';
const SEND_TIME = '23:59';

export const automationPair: Pair<BenchContext> = {
  name: 'p8-automation-firing',
  async run(ctx) {
    const { models, services, client, settings, smtp, smtpPoolSize } = ctx;
    const members = settings.quick ? 500 : 10_000;
    const { accountId } = await createAccount(ctx, { name: 'Bench P8', ownerEmail: `bench-automation-${Date.now()}@example.com`, plan: 'enterprise' });
    const ecard = await benchEcard(models, accountId, 'Happy birthday {{recipient_first_name}}');
    const today = localDateOf(new Date(), TIMEZONE);
    const birthday = `1990-${today.slice(5)}`;
    const now = new Date();
    for (let i = 0; i < members; i += 1000) {
      await models.TeamMember.bulkCreate(
        Array.from({ length: Math.min(1000, members - i) }, (_, j) => ({
          account_id: accountId, email: `m${i + j}@bench.example.com`, employee_id: null, first_name: `M${i + j}`, last_name: 'Bench', job_position: null,
          date_of_birth: birthday === '1990-02-29' ? '1992-02-29' : birthday, hire_date: null, profile_image_url: null, manager_id: null,
          pending_manager_email: null, disabled: false, created_at: now, updated_at: now,
        })),
      );
    }
    let sequence = 0;
    const findDueSeconds: number[] = [];

    const findDueTime = async (workflowId: string) => {
      const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'findAutomationDue');
      const completed = events.find((e) => e.activityTaskCompletedEventAttributes && Number(e.activityTaskCompletedEventAttributes.scheduledEventId) === Number(scheduled?.eventId));
      const ms = (e: typeof scheduled) => Number(e?.eventTime?.seconds ?? 0) * 1000 + Math.floor((e?.eventTime?.nanos ?? 0) / 1e6);
      return (ms(completed) - ms(scheduled)) / 1000;
    };

    // Every member is due in every round: each round is a new automation, its watermark at yesterday.
    const firingRound = async (warm: boolean) => {
      // No warm-up firing (it would be a full-size round): P4's campaigns have just warmed the same worker and pool.
      if (warm) return 0;
      const round = ++sequence;
      const automation = await models.Automation.create({
        account_id: accountId, automation_name: `Bench ${round}`, event_type: 'birthday', enabled: true, from_name: 'HR', from_email: 'hr@example.com',
        trigger_config: '{}', timing_config: JSON.stringify({ send_time: SEND_TIME, timezone: TIMEZONE }), random_messages: null,
        selected_member_ids: null, selected_department_ids: null, milestone_rules: null, notification_segment: null, gift_card: null,
        watermark: lastPassedDate(new Date(), SEND_TIME, TIMEZONE),
      });
      await models.AutomationEcard.create({ automation_id: automation.id, account_id: accountId, ecard_id: ecard.id, role: 'selected', milestone_index: null, position: 0 });
      await syncAutomationSchedule(services, accountId, automation.id);
      const handle = client.schedule.getHandle(automationScheduleId(accountId, automation.id));
      const before = smtp.received();
      const started = performance.now();
      await handle.trigger();
      while (smtp.received() - before < members) await sleep(20);
      const seconds = (performance.now() - started) / 1000;
      const action = (await handle.describe()).info.recentActions.at(-1);
      if (action) findDueSeconds.push(await findDueTime(action.action.workflow.workflowId));
      await handle.delete();
      if (smtp.received() - before !== members) throw new Error(`P8 automation ${automation.id}: ${smtp.received() - before} messages for ${members} members`);
      return members / seconds;
    };
    const bare = (warm: boolean) => bareNodemailerRound(smtp, warm ? 100 : members, smtpPoolSize, `p8-${++sequence}`);
    const figures = await alternatedRounds('P8', { name: 'automation firing', round: firingRound }, { name: 'bare nodemailer pool', round: bare }, settings, 'messages/s');
    return [{
      name: 'p8-automation-firing', compares: `firing with ${members} due members vs the P4 bare pool`, target: '≥ 0.4', unit: 'messages/s', ...figures,
      notes: { members, smtpPoolSize, findDueSeconds },
    }];
  },
};
