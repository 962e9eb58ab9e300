// Automations for firing tests: a row (and its eCard references) made in the database as a save would leave it,
// its Temporal Schedule (by the lifecycle), a zone where the send time is still ahead today, and firings through the Schedule.
import type { Client, ScheduleHandle, ScheduleOverlapPolicy } from '@temporalio/client';
import { expect } from 'chai';
import type { InferCreationAttributes } from 'sequelize';
import type { Automation } from '../../models/Automation.ts';
import type { AutomationEcardRole } from '../../models/AutomationEcard.ts';
import type { Models } from '../../models/index.ts';
import { lastPassedDate } from '../../services/automations/local-date.ts';
import type { ServiceContext } from '../../services/context.ts';
import type { AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { automationScheduleId } from '../../workflows/automation/contract.ts';
import { syncAutomationSchedule } from '../../services/automations/schedule.ts';
import { onSuiteEnd } from './cleanup.ts';

export const FIRING_SEND_TIME = '23:00';
const ZONES = ['Pacific/Auckland', 'Asia/Tokyo', 'Asia/Kolkata', 'Europe/Paris', 'America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu'];

/** A zone where FIRING_SEND_TIME is at least an hour ahead today (enabling would otherwise move the watermark past today). */
export function firingZone(): string {
  const hour = (zone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  return ZONES.find((zone) => hour(zone) < 22)!;
}

export type AutomationFields = Partial<InferCreationAttributes<Automation>>;
export type EcardRef = { role: AutomationEcardRole; ecard_id: number; milestone_index?: number };

/** An enabled birthday automation sending `ecardId` (plus `refs`), its watermark where enabling now would put it. */
export async function insertAutomation(models: Models, accountId: number, zone: string, ecardId: number, fields: AutomationFields = {}, refs: EcardRef[] = []) {
  const row = await models.Automation.create({
    account_id: accountId,
    automation_name: 'Birthdays',
    event_type: 'birthday',
    enabled: true,
    from_name: 'People team',
    from_email: 'people@example.com',
    trigger_config: '{}',
    timing_config: JSON.stringify({ send_time: FIRING_SEND_TIME, timezone: zone }),
    random_messages: JSON.stringify(['Many happy returns!']),
    selected_member_ids: '[]',
    selected_department_ids: '[]',
    milestone_rules: null,
    notification_segment: null,
    gift_card: null,
    watermark: lastPassedDate(new Date(), FIRING_SEND_TIME, zone),
    ...fields,
  });
  const all: EcardRef[] = [{ role: 'selected', ecard_id: ecardId }, ...refs];
  await models.AutomationEcard.bulkCreate(all.map((r, i) => ({ automation_id: row.id, account_id: accountId, ecard_id: r.ecard_id, role: r.role, milestone_index: r.milestone_index ?? null, position: i })));
  return row;
}

/** The automation's Schedule, made by the lifecycle (syncAutomationSchedule) on the services' task queue. */
export async function createFiringSchedule(services: ServiceContext, row: Automation): Promise<ScheduleHandle> {
  await syncAutomationSchedule(services, row.account_id, row.id);
  const handle = services.workflows!.client.schedule.getHandle(automationScheduleId(row.account_id, row.id));
  // Throws when the sync could not make it.
  await handle.describe();
  onSuiteEnd(() => handle.delete().catch(() => undefined));
  return handle;
}

/** The ids of the firings `act` made the Schedule start (waits in whole seconds for `count` of them). */
export async function startedFirings(handle: ScheduleHandle, count: number, act: () => Promise<void>): Promise<string[]> {
  const before = new Set((await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId));
  await act();
  const deadline = Date.now() + 30_000;
  let started: string[] = [];
  while (started.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    started = (await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId).filter((id) => !before.has(id));
  }
  expect(started, 'firings started').to.have.length(count);
  return started;
}

/** Runs `act` and waits for the `count` firings it made the Schedule start to end. */
export async function firings(client: Client, handle: ScheduleHandle, count: number, act: () => Promise<void>): Promise<AutomationFiringResult[]> {
  const ids = await startedFirings(handle, count, act);
  return Promise.all(ids.map((id) => client.workflow.getHandle(id).result() as Promise<AutomationFiringResult>));
}

/** Triggers the Schedule now (`count` times, a second apart: a firing's id holds its nominal time in whole seconds). */
export function triggerTimes(handle: ScheduleHandle, count: number, overlap?: ScheduleOverlapPolicy): () => Promise<void> {
  return async () => {
    for (let i = 0; i < count; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 1100));
      await handle.trigger(overlap);
    }
  };
}
