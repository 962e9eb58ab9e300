// `npm run bench` (fifth part): one automation firing with BENCH_AUTOMATION_MEMBERS members due (birthdays today),
// due members per second from the Schedule's trigger to the last email (Schedule, firing workflow, find-due,
// fan-out, claims, the SMTP pool), against a bare nodemailer pool of the same size sending as many messages to the
// same in-process SMTP server, rounds alternated in one run and reported as a ratio. The find-due step's own time
// (its activity, from the firing's history) is reported beside it. Settings: BENCH_AUTOMATION_MEMBERS (default
// 10,000), BENCH_ROUNDS (default 3), SMTP_POOL_SIZE (default 5), DATABASE_URL (default: a fresh SQLite file).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { lastPassedDate, localDateOf } from '../services/automations/local-date.ts';
import { createAccount } from '../services/accounts.ts';
import { automationScheduleId } from '../workflows/automation/ids.ts';
import { syncAutomationSchedule } from '../workflows/automation/lifecycle.ts';
import { bareNodemailerRound, benchEcard, benchStack, countingSmtp } from './harness.ts';

const members = Number(process.env.BENCH_AUTOMATION_MEMBERS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const poolSize = Number(process.env.SMTP_POOL_SIZE ?? 5);
// A zone whose send time (one minute before midnight) has not come yet today, so the Schedule never fires by
// itself during the run; the firing comes from trigger-now.
const TIMEZONE = 'UTC';
const SEND_TIME = '23:59';

const smtp = await countingSmtp();
const bench = await benchStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_POOL_SIZE: String(poolSize) });
const { config, models, services } = bench;
const client: Client = services.workflows!.client;

const { accountId } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-automation-${Date.now()}@example.com`, plan: 'enterprise' });
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

/** The firing's find-due activity, from scheduled to completed in its history. */
async function findDueTime(workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'findAutomationDue');
  const completed = events.find((e) => e.activityTaskCompletedEventAttributes && Number(e.activityTaskCompletedEventAttributes.scheduledEventId) === Number(scheduled?.eventId));
  const ms = (e: typeof scheduled) => Number(e?.eventTime?.seconds ?? 0) * 1000 + Math.floor((e?.eventTime?.nanos ?? 0) / 1e6);
  return (ms(completed) - ms(scheduled)) / 1000;
}

/** One automation, enabled with its watermark at yesterday, fired once through its Schedule; due members per second. */
async function firingRound(): Promise<number> {
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
  if (smtp.received() - before !== members) throw new Error(`automation ${automation.id}: ${smtp.received() - before} messages for ${members} members`);
  return members / seconds;
}

console.log(`database ${config.database.dialect}, ${rounds} rounds of ${members} members due, SMTP pool of ${poolSize}`);
const totals = { bare: 0, firing: 0 };
for (let round = 1; round <= rounds; round++) {
  const bare = await bareNodemailerRound(smtp, members, poolSize, String(++sequence));
  const firing = await firingRound();
  totals.bare += bare;
  totals.firing += firing;
  console.log(`round ${round}: bare pool ${bare.toFixed(0)} messages/s, firing ${firing.toFixed(0)} due members/s, ratio ${(firing / bare).toFixed(2)}, find-due ${findDueSeconds.at(-1)?.toFixed(2) ?? '?'} s`);
}
const meanFindDue = findDueSeconds.reduce((a, b) => a + b, 0) / Math.max(1, findDueSeconds.length);
console.log(`automation firing / bare nodemailer pool throughput: ${(totals.firing / totals.bare).toFixed(2)}; find-due step ${meanFindDue.toFixed(2)} s for ${members} members (mean)`);
await bench.close();
await smtp.close();
