// P6's baseline: the API as bin/api.ts starts it, with the database-backed rate limiter swapped for one that
// allows everything and touches nothing; a process of its own, on the same settings as the API.
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { onShutdownSignal, runMain } from '../lib/main.ts';
import { requireDataKeys } from '../lib/data-key.ts';
import { externalTemporalAddress, openDatabase, startApi } from '../app/runtime.ts';
import { createServices } from '../app/services.ts';
import type { RateLimiter } from '../services/rate-limits.ts';

const off: RateLimiter = { consume: async () => ({ allowed: true, limit: 1, remaining: 1, resetSeconds: 60, usageThisHour: 0 }), close: async () => {} };

await runMain('bench api without limiter', async () => {
  const config = loadConfig();
  const logger = createLogger(config);
  const models = await openDatabase(config, 'require-migrated');
  const services = createServices({ config, logger, models, temporalAddress: externalTemporalAddress(config, 'API'), dataKeys: requireDataKeys(config, 'the API') });
  const api = await startApi(services, { rateLimiter: off });
  onShutdownSignal(async () => {
    await api.stop();
    await services.close();
    await models.sequelize.close();
  });
});
