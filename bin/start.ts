// `npm start`: the whole service in one command (migrations, embedded Temporal, worker, API).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { startEmbeddedTemporal } from '../lib/embedded-temporal.ts';
import { createLogger } from '../lib/logger.ts';
import { onShutdownSignal, runMain } from '../lib/main.ts';
import { openDatabase, startApi, startWorker } from '../lib/runtime.ts';
import type { DevServer } from '../lib/temporal-dev-server.ts';

await runMain('npm start', async () => {
  const config = loadConfig();
  const logger = createLogger(config);
  const say = (line: string) => console.error(line);
  await mkdir(config.dataDir, { recursive: true });

  const models = await openDatabase(config, 'migrate');
  let devServer: DevServer | undefined;
  let address = config.temporal.address;
  if (address === undefined) {
    say(`Starting the embedded Temporal dev server on port ${config.temporal.port}...`);
    devServer = await startEmbeddedTemporal({
      search: config.temporal,
      progress: say,
      port: config.temporal.port,
      uiPort: config.temporal.uiPort,
      dbFile: join(config.dataDir, 'temporal.sqlite'),
      pidFile: join(config.dataDir, 'temporal.pid'),
      namespace: config.temporal.namespace,
      env: config.temporal.childEnv,
    });
    address = devServer.address;
  }
  const worker = await startWorker(config, logger, models, address);
  const api = await startApi(config, logger, models, address);

  const shutdown = async () => {
    say('Shutting down...');
    await api.stop();
    await worker.stop();
    await models.sequelize.close();
    // Last, so in-flight workflow tasks could still finish against it.
    await devServer?.stop();
  };
  onShutdownSignal(shutdown);
  worker.done.catch(async (err: unknown) => {
    logger.error({ err }, 'worker stopped unexpectedly');
    await shutdown().finally(() => process.exit(1));
  });

  const base = config.publicBaseUrl;
  say(`Card service ready.`);
  say(`  API:         ${base}/v2/api`);
  say(`  OpenAPI:     ${base}/v2/api/openapi.json`);
  say(`  Readiness:   ${base}/readyz`);
  say(`  Temporal UI: ${devServer?.uiUrl ?? `(external server at ${address}; open its own UI)`}`);
  say(`  Data:        ${config.dataDir}`);
  say('Press Ctrl-C to stop.');
});
