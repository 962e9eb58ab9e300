// The real Temporal server for a test (lib/temporal-server.ts): built once into the cache, its two PostgreSQL
// databases made afresh by its schema tool, started on free ports, stopped when the run ends.
import { loadConfig } from '../../lib/config.ts';
import { startFreshTemporalServer, type TemporalServer } from '../../lib/temporal-server.ts';
import { onSuiteEnd } from './cleanup.ts';
import { baseEnv, tempDir } from './env.ts';

/** A fresh cluster of `shards` history shards in databases named after `database` (TEMPORAL_POSTGRES_URL: another PostgreSQL). */
export async function temporalCluster(database: string, shards = 4): Promise<TemporalServer> {
  const config = loadConfig(baseEnv());
  const server = await startFreshTemporalServer({ database, shards, dir: tempDir('cardsvc-temporal-server-'), config, postgresUrl: process.env.TEMPORAL_POSTGRES_URL, progress: (line) => console.error(line) });
  onSuiteEnd(() => server.stop());
  // A run that ends abruptly leaves no server behind (exit handlers run synchronously: the signal alone).
  process.once('exit', () => {
    const pid = server.pid();
    try {
      if (pid) process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  return server;
}
