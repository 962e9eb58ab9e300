// One Temporal dev server for the whole run: in memory, headless, on free ports (never an inherited TEMPORAL_ADDRESS).
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { loadConfig } from '../../lib/config.ts';
import { startEmbeddedTemporal } from '../../lib/embedded-temporal.ts';
import type { DevServer } from '../../lib/temporal-dev-server.ts';
import { freePort } from './ports.ts';
import { onSuiteEnd } from './cleanup.ts';
import { baseEnv } from './env.ts';

export const TEST_NAMESPACE = 'default';

let server: Promise<DevServer> | undefined;

export function testTemporal(): Promise<DevServer> {
  server ??= (async () => {
    const config = loadConfig(baseEnv());
    const started = await startEmbeddedTemporal({
      search: config.temporal,
      progress: (line) => console.error(line),
      port: await freePort(),
      uiPort: undefined,
      dbFile: undefined,
      pidFile: undefined,
      namespace: TEST_NAMESPACE,
      env: config.temporal.childEnv,
    });
    onSuiteEnd(() => started.stop());
    // If the run is cut short (mocha killed, --bail), never leave the server behind.
    process.once('exit', () => {
      if (started.pid) {
        try {
          process.kill(-started.pid, 'SIGKILL');
        } catch {
          // already stopped
        }
      }
    });
    return started;
  })();
  return server;
}

let connection: Promise<Connection> | undefined;

/** A client connection to the suite's server (workflow and operator services). */
export function testConnection(): Promise<Connection> {
  connection ??= (async () => {
    const opened = await Connection.connect({ address: (await testTemporal()).address });
    onSuiteEnd(() => opened.close());
    return opened;
  })();
  return connection;
}

/** A Temporal client on the suite's server. */
export async function testClient(): Promise<Client> {
  return new Client({ connection: await testConnection(), namespace: TEST_NAMESPACE });
}

/** A workflow's status name ("RUNNING", "COMPLETED", ...), or null while no workflow has that id. */
export async function workflowStatus(client: Client, workflowId: string): Promise<string | null> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}
