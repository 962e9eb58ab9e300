// Temporal connection helpers: lazy connections, the namespace probe and search-attribute registration.
import { Connection } from '@temporalio/client';
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
