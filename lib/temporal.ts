// Temporal connection helpers: lazy connections, the namespace probe, the search attributes the service sets (its
// set-up on a server: lib/temporal-set-up.ts).
import { Connection } from '@temporalio/client';

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
