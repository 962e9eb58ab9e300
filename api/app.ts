// Builds the Koa application (no listen), so tests can run several in one process.
import Koa from 'koa';
import type { Connection } from '@temporalio/client';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { Models } from '../models/index.ts';
import { healthRouter } from './health/router.ts';
import { errorHandler } from './middleware/errors.ts';
import { requestId } from './middleware/request-id.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  models: Models;
  temporal: { connection: Connection; namespace: string };
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  app.use(requestId());
  app.use(errorHandler(deps.logger));
  const health = healthRouter({ sequelize: deps.models.sequelize, temporal: deps.temporal });
  app.use(health.routes());
  app.use(health.allowedMethods());
  return app;
}
