// `npm run worker`: the Temporal worker alone, against an external database and Temporal server (production).
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { onShutdownSignal, runMain } from '../lib/main.ts';
import { requireDataKeys } from '../lib/data-key.ts';
import { externalTemporalAddress, openDatabase, startWorker } from '../app/runtime.ts';
import { createServices } from '../app/services.ts';

await runMain('npm run worker', async () => {
  const config = loadConfig();
  const address = externalTemporalAddress(config, 'worker');
  // Never generated here: an API and a worker that each made their own key could not read each other's codes.
  const dataKeys = requireDataKeys(config, 'the worker');
  const logger = createLogger(config);
  const models = await openDatabase(config, 'require-migrated');
  const services = createServices({ config, logger, models, temporalAddress: address, dataKeys });
  const worker = await startWorker(services);
  logger.info({ taskQueue: config.temporal.taskQueue }, 'worker polling');
  // Once: a signal's stop settles `worker.done` too, and closing SQLite twice throws (SQLITE_MISUSE, exit 1).
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await services.close();
      await models.sequelize.close();
    })());
  onShutdownSignal(async () => {
    await worker.stop();
    await close();
  });
  await worker.done;
  await close();
});
