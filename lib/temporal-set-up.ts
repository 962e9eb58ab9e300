// The service's own set-up on any Temporal server (the dev server, a production cluster, Temporal Cloud), run by every
// worker at its start: the namespace with its retention, the search attributes, and a wait until the cluster takes
// workflows and Schedules that set them. Idempotent, and safe with several processes starting at once.
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, ScheduleAlreadyRunning, type Connection } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { msToTs } from '@temporalio/common/lib/time.js';
import proto from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from './temporal.ts';

// gRPC's status codes (a fixed part of its protocol).
const status = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, ALREADY_EXISTS: 6, UNAVAILABLE: 14 } as const;

function grpcCode(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'number' ? err.code : undefined;
}

/**
 * Registers the namespace with its retention when the server lacks it (a production server has only its system
 * namespace). Several processes may start at once: whoever registers second is told it exists, which is the goal.
 */
export async function registerNamespace(connection: Connection, namespace: string, retentionDays: number): Promise<'registered' | 'present'> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return 'present';
  } catch (err) {
    if (grpcCode(err) !== status.NOT_FOUND) throw err;
  }
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      description: 'The card service (registered by its worker at start-up)',
      workflowExecutionRetentionPeriod: msToTs(retentionDays * 86_400_000),
    });
    return 'registered';
  } catch (err) {
    if (grpcCode(err) === status.ALREADY_EXISTS) return 'present';
    throw err;
  }
}

/** `attempt` again every half second while it fails with one of `codes`, until the deadline. */
async function whileRefused<T>(codes: readonly number[], attempt: () => Promise<T>, deadline: number, what: string): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!codes.includes(grpcCode(err) ?? -1)) throw err;
      if (Date.now() > deadline) throw new Error(`${what}: still refused (${(err as Error).message})`, { cause: err });
      await sleep(500);
    }
  }
}

/**
 * The service's set-up on a Temporal server, idempotent: its namespace, then its search attributes, then a wait
 * until a workflow that sets them is accepted. A namespace just registered, and attributes just added, reach the
 * cluster's caches some seconds later (each service refreshes its own): until then the frontend answers NOT_FOUND
 * for the namespace, and refuses a workflow or a Schedule that sets the attributes ("no mapping defined"), although
 * listSearchAttributes, read from the database, already lists them.
 */
export async function setUpTemporal(connection: Connection, namespace: string, retentionDays: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // A server that has just started answers on its port a little before its frontend serves (UNAVAILABLE).
  const made = await whileRefused([status.UNAVAILABLE], () => registerNamespace(connection, namespace, retentionDays), deadline, `Temporal at start-up`);
  const added = await whileRefused([status.NOT_FOUND], () => registerSearchAttributes(connection, namespace), deadline, `Temporal namespace ${namespace}`);
  // Only the process that changed something waits for the caches (steady state: two reads at a worker's start). One
  // that found everything in place while another was still registering starts at once; its first Schedule may then
  // be refused, which the reconciler repairs, as it does any Schedule a Temporal outage kept from being made.
  if (made === 'registered' || added) await untilWorkflowsAccepted(connection, namespace, deadline);
}

/** The probe's id, as a workflow (on a task queue no worker polls) and as a paused Schedule; each removed at once. */
export const SET_UP_PROBE_ID = 'cardsvc-set-up-probe';

/**
 * Starts a workflow and creates a Schedule that set every search attribute (each removed at once), until both are
 * accepted: the Schedule apart, because a cluster refused the first Schedule of a namespace ("no mapping defined")
 * after its workflows were accepted (seen in the topology test, 20 s after the set-up). Once anything was refused,
 * twice in a row a second apart. What stays visible: a terminated `set-up-probe` workflow, for the retention period.
 */
async function untilWorkflowsAccepted(connection: Connection, namespace: string, deadline: number): Promise<void> {
  const client = new Client({ connection, namespace });
  const typedSearchAttributes = SEARCH_ATTRIBUTES.map((name) => ({ key: defineSearchAttributeKey(name, SearchAttributeType.KEYWORD), value: 'set-up-probe' }));
  const probe = async () => {
    const handle = await client.workflow.start('set-up-probe', { taskQueue: SET_UP_PROBE_ID, workflowId: SET_UP_PROBE_ID, typedSearchAttributes, workflowIdConflictPolicy: 'TERMINATE_EXISTING' });
    await handle.terminate('the service set-up probe: the namespace takes its search attributes').catch(() => undefined);
    try {
      const schedule = await client.schedule.create({
        scheduleId: SET_UP_PROBE_ID,
        spec: { intervals: [{ every: '365 days' }] },
        action: { type: 'startWorkflow', workflowType: 'set-up-probe', taskQueue: SET_UP_PROBE_ID, typedSearchAttributes },
        typedSearchAttributes,
        state: { paused: true },
      });
      await schedule.delete().catch(() => undefined);
    } catch (err) {
      // Another process's probe at the same moment: its Schedule was accepted, which is what this asks.
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  };
  let refused = false;
  let inARow = 0;
  for (;;) {
    try {
      await probe();
      inARow += 1;
      if (!refused || inARow >= 2) return;
    } catch (err) {
      const code = grpcCode(err instanceof Error && err.cause ? err.cause : err);
      if (code !== status.INVALID_ARGUMENT && code !== status.NOT_FOUND) throw err;
      if (Date.now() > deadline) throw new Error(`Temporal namespace ${namespace}: a workflow or Schedule setting its search attributes was still refused`, { cause: err });
      refused = true;
      inARow = 0;
    }
    await sleep(1000);
  }
}

/**
 * Registers the service's Keyword search attributes (a production server lacks the dev server's flags); true when any
 * was missing (added here, or by another process at the same moment).
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<boolean> {
  const keyword = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SEARCH_ATTRIBUTES.filter((name) => !(name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return false;
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, keyword])),
    });
  } catch (err) {
    // Another worker registered them first.
    if (!/already exists/i.test(err instanceof Error ? err.message : String(err))) throw err;
  }
  return true;
}
