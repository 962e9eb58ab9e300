// `npm run api`: the HTTP API alone, against an external database and Temporal server (production).
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { onShutdownSignal, runMain } from '../lib/main.ts';
import { requireDataKeys } from '../lib/data-key.ts';
import { externalTemporalAddress, openDatabase, startApi } from '../app/runtime.ts';
import { createServices } from '../app/services.ts';

await runMain('npm run api', async () => {
  const config = loadConfig();
  const address = externalTemporalAddress(config, 'API');
  // Never generated here: an API and a worker that each made their own key could not read each other's codes.
  const dataKeys = requireDataKeys(config, 'the API');
  const logger = createLogger(config);
  const models = await openDatabase(config, 'require-migrated');
  const services = createServices({ config, logger, models, temporalAddress: address, dataKeys });
  const api = await startApi(services);
  logger.info({ port: api.port }, 'API listening');
  onShutdownSignal(async () => {
    await api.stop();
    await services.close();
    await models.sequelize.close();
  });
});
