// Builds the Koa application (no listen), so tests can run several in one process.
import Koa from 'koa';
import type Router from '@koa/router';
import type { Connection } from '@temporalio/client';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { Models } from '../models/index.ts';
import { healthRouter, registerHealthPaths } from './health/router.ts';
import { errorHandler } from './middleware/errors.ts';
import { requestId } from './middleware/request-id.ts';
import { OpenAPIRegistry, openApiRouter } from './openapi.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  models: Models;
  temporal: { connection: Connection; namespace: string };
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  const registry = new OpenAPIRegistry();
  registerHealthPaths(registry);
  const routers: Router[] = [
    healthRouter({ sequelize: deps.models.sequelize, temporal: deps.temporal }),
    openApiRouter(registry, deps.config),
  ];
  app.use(requestId());
  app.use(errorHandler(deps.logger));
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
