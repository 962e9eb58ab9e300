// What an automation's Temporal Schedule should be, from its row (pure: the lifecycle writes it, the reconciler
// compares what Temporal holds against it, and unit tests check it without a server).
// Plain shapes, not the client's types (the client is for lifecycle code only): the lifecycle hands them to it.
import type { SearchAttributePair } from '@temporalio/common';
import { cardAttributes } from '../shared/search-attributes.ts';
import { AUTOMATION_FIRING_WORKFLOW, automationScheduleId, type AutomationFiringInput } from './contract.ts';

/** What the Schedule depends on: the row's enabled flag and timing_config (JSON text, null until set). */
export interface AutomationScheduleRow {
  id: number;
  account_id: number;
  enabled: boolean;
  timing_config: string | null;
}

export interface ScheduleTiming {
  hour: number;
  minute: number;
  timezone: string;
  /** One Schedule per zone in use, each firing at send_time in its zone. */
  recipientTimezone: boolean;
}

/** A Schedule as written: the client's ScheduleOptions (create) and, without scheduleId, ScheduleUpdateOptions. */
export interface AutomationScheduleOptions {
  scheduleId: string;
  spec: { calendars?: Array<{ hour: number; minute: number; comment: string }>; timezone?: string };
  action: {
    type: 'startWorkflow';
    workflowType: string;
    workflowId: string;
    taskQueue: string;
    args: [AutomationFiringInput];
    typedSearchAttributes: SearchAttributePair[];
  };
  policies: { overlap: 'SKIP'; catchupWindow: number };
  state: { paused: boolean; note: string };
}

type Ranges = ReadonlyArray<{ start: number; end: number }>;

/** The parts the reconciler compares, as Temporal's list and describe both show them. */
export interface ScheduleShape {
  spec?: { calendars?: ReadonlyArray<{ hour: Ranges; minute: Ranges }> | undefined; intervals?: readonly unknown[] | undefined; timezone?: string | undefined } | undefined;
  action?: { workflowType: string } | undefined;
  state: { paused: boolean };
}

const SEND_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** Firings late by up to a day (an outage) still run; the firing's own window handles what is older. */
export const CATCHUP_WINDOW_MS = 86_400_000;
export const PAUSED_DISABLED = 'paused: the automation is disabled';
export const RUNNING = 'running: the automation is enabled';
export const PAUSED_NO_TIMING = 'paused: the automation has no send_time and timezone yet';

/** send_time and timezone from timing_config; null while unset or unreadable (the Schedule then stays paused). */
export function timingOf(timingConfig: string | null): ScheduleTiming | null {
  if (!timingConfig) return null;
  let timing: unknown;
  try {
    timing = JSON.parse(timingConfig);
  } catch {
    return null;
  }
  const { send_time: sendTime, timezone, recipient_timezone: recipientTimezone } = (timing ?? {}) as { send_time?: unknown; timezone?: unknown; recipient_timezone?: unknown };
  const match = typeof sendTime === 'string' ? SEND_TIME.exec(sendTime) : null;
  if (!match || typeof timezone !== 'string' || timezone === '') return null;
  return { hour: Number(match[1]), minute: Number(match[2]), timezone, recipientTimezone: recipientTimezone === true };
}

/** Why the Schedule is paused, or undefined when it runs. */
export function pauseReason(row: AutomationScheduleRow): string | undefined {
  if (!timingOf(row.timing_config)) return PAUSED_NO_TIMING;
  return row.enabled ? undefined : PAUSED_DISABLED;
}

/**
 * The zones the automation's Schedules fire in: [null] (its one Schedule) unless it sends at each recipient's local
 * time and runs; then each zone in use (`memberZones`: its members' zones; members without one use the
 * automation's, which is always in), sorted. Disabled, it keeps one paused Schedule, as any automation.
 */
export function scheduleZones(row: AutomationScheduleRow, memberZones: readonly string[]): Array<string | null> {
  const timing = timingOf(row.timing_config);
  if (!timing?.recipientTimezone || pauseReason(row) !== undefined) return [null];
  return [...new Set([timing.timezone, ...memberZones])].sort();
}

/** The whole Schedule (create). Without a timing it has no calendar: paused, it only waits for one. */
export function automationScheduleOptions(row: AutomationScheduleRow, taskQueue: string, zone: string | null = null): AutomationScheduleOptions {
  const timing = timingOf(row.timing_config);
  const reason = pauseReason(row);
  const input: AutomationFiringInput = { accountId: row.account_id, automationId: row.id, ...(zone ? { zone } : {}) };
  const scheduleId = automationScheduleId(row.account_id, row.id, zone);
  return {
    scheduleId,
    spec: timing
      ? { calendars: [{ hour: timing.hour, minute: timing.minute, comment: 'send_time' }], timezone: zone ?? timing.timezone }
      : {},
    action: {
      type: 'startWorkflow',
      workflowType: AUTOMATION_FIRING_WORKFLOW,
      // Temporal appends the scheduled time: `automation/<account>/<id>-<time>`, a new id per firing.
      workflowId: scheduleId,
      taskQueue,
      args: [input],
      typedSearchAttributes: cardAttributes(row.account_id, 'automation', 'firing'),
    },
    // SKIP: a firing still running when the next is due (or triggered) means the next does not start.
    policies: { overlap: 'SKIP', catchupWindow: CATCHUP_WINDOW_MS },
    state: { paused: reason !== undefined, note: reason ?? RUNNING },
  };
}

/** The same, as an update of an existing Schedule (its id and memo are not part of an update). */
export function automationScheduleUpdate(row: AutomationScheduleRow, taskQueue: string, zone: string | null = null): Omit<AutomationScheduleOptions, 'scheduleId'> {
  const { spec, action, policies, state } = automationScheduleOptions(row, taskQueue, zone);
  return { spec, action, policies, state };
}

// One value, as Temporal describes it: a single range whose end is its start (an end below the start means the start).
const single = (ranges: Ranges | undefined) =>
  ranges?.length === 1 && ranges[0]!.end <= ranges[0]!.start ? ranges[0]!.start : undefined;

/** Whether a Schedule Temporal holds fires when the row says, in its zone, paused as it should be. */
export function scheduleMatches(row: AutomationScheduleRow, schedule: ScheduleShape, zone: string | null = null): boolean {
  const timing = timingOf(row.timing_config);
  if (schedule.state.paused !== (pauseReason(row) !== undefined)) return false;
  if (schedule.action && schedule.action.workflowType !== AUTOMATION_FIRING_WORKFLOW) return false;
  const calendars = schedule.spec?.calendars ?? [];
  if ((schedule.spec?.intervals ?? []).length > 0) return false;
  if (!timing) return calendars.length === 0;
  const [calendar] = calendars;
  return (
    calendars.length === 1 &&
    single(calendar!.hour) === timing.hour &&
    single(calendar!.minute) === timing.minute &&
    (schedule.spec?.timezone ?? 'UTC') === (zone ?? timing.timezone)
  );
}
