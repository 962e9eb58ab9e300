// `npm run bounces`: the bounce listener alone (production; `npm start` runs it too when BOUNCE_DOMAIN is set),
// against the migrated database. It needs no Temporal server and no rewards key: the events it records are
// delivered by the workers' outbox sweeps.
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { onShutdownSignal, runMain } from '../lib/main.ts';
import { startBounceListener } from '../app/bounce-listener.ts';
import { openDatabase } from '../app/runtime.ts';
import { createServices } from '../app/services.ts';

await runMain('npm run bounces', async () => {
  const config = loadConfig();
  if (!config.bounces.domain) throw new Error('BOUNCE_DOMAIN is not set: the listener takes bounces for bounces+<token>@BOUNCE_DOMAIN');
  const logger = createLogger(config);
  const models = await openDatabase(config, 'require-migrated');
  const services = createServices({ config, logger, models, dataKeys: undefined });
  const listener = await startBounceListener(services).catch(async (err: unknown) => {
    await services.close();
    await models.sequelize.close();
    throw err;
  });
  logger.info({ port: listener.port, domain: config.bounces.domain }, 'bounce listener ready');
  onShutdownSignal(async () => {
    await listener.stop();
    await services.close();
    await models.sequelize.close();
  });
});
