// `npm run worker`: the Temporal worker alone, against an external database and Temporal server (production).
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { onShutdownSignal, runMain } from '../lib/main.ts';
import { externalTemporalAddress, openDatabase, startWorker } from '../lib/runtime.ts';

await runMain('npm run worker', async () => {
  const config = loadConfig();
  const address = externalTemporalAddress(config, 'worker');
  const logger = createLogger(config);
  const models = await openDatabase(config, 'require-migrated');
  const worker = await startWorker(config, logger, models, address);
  logger.info({ taskQueue: config.temporal.taskQueue }, 'worker polling');
  onShutdownSignal(async () => {
    await worker.stop();
    await models.sequelize.close();
  });
  await worker.done;
  await models.sequelize.close();
});
