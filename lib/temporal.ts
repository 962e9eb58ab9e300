// Temporal connection helpers: lazy connections, the namespace probe, and the service's own set-up on any Temporal
// server (its namespace and search attributes).
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection, ScheduleAlreadyRunning } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { msToTs } from '@temporalio/common/lib/time.js';
import proto from '@temporalio/proto';

/** The search attributes every workflow of the service sets; registered by the dev server and the worker. */
export const SEARCH_ATTRIBUTES = ['CardAccountId', 'CardKind', 'CardStatus'] as const;

/**
 * A connection that dials on first use (so the API starts, and /readyz answers 503, while Temporal is down),
 * without the SDK's retry interceptor, for probes: a probe wants one answer within its
 * deadline, and the interceptor's retry timers can outlive the call and fire after the connection closed.
 */
export function probeConnection(address: string): Connection {
  return Connection.lazy({ address, connectTimeout: 2000, interceptors: [] });
}

/** Resolves when the namespace answers within the deadline; throws otherwise. */
export async function describeNamespace(connection: Connection, namespace: string, timeoutMs: number): Promise<void> {
  await connection.withDeadline(Date.now() + timeoutMs, () =>
    connection.workflowService.describeNamespace({ namespace }),
  );
}

// gRPC's status codes (a fixed part of its protocol).
const status = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, ALREADY_EXISTS: 6 } as const;

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

/** `attempt` again every half second while it fails with NOT_FOUND, until the deadline. */
async function whileNotFound<T>(attempt: () => Promise<T>, deadline: number, what: string): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (grpcCode(err) !== status.NOT_FOUND) throw err;
      if (Date.now() > deadline) throw new Error(`${what}: still not found`, { cause: err });
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
  await registerNamespace(connection, namespace, retentionDays);
  await whileNotFound(() => registerSearchAttributes(connection, namespace), deadline, `Temporal namespace ${namespace}`);
  await untilWorkflowsAccepted(connection, namespace, deadline);
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

/** Registers the service's Keyword search attributes (a production server lacks the dev server's flags). */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const keyword = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SEARCH_ATTRIBUTES.filter((name) => !(name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return;
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, keyword])),
    });
  } catch (err) {
    // Another worker registered them first.
    if (!/already exists/i.test(err instanceof Error ? err.message : String(err))) throw err;
  }
}
