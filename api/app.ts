// Builds the Koa application (no listen), so tests can run several in one process.
import Koa from 'koa';
import type Router from '@koa/router';
import type { Connection } from '@temporalio/client';
import type { Config } from '../lib/config.ts';
import { ApiError } from '../lib/errors.ts';
import type { Logger } from '../lib/logger.ts';
import type { Models } from '../models/index.ts';
import { createKeyAuthenticator } from '../services/api-keys.ts';
import { join } from 'node:path';
import { localDiskStore, type MediaStore } from '../lib/media-store.ts';
import { createRateLimiter, type RateLimiter } from '../services/rate-limits.ts';
import type { UsageCheck } from '../services/usage.ts';
import type { WorkflowTarget } from '../workflows/webhook-delivery/lifecycle.ts';
import { mediaRouter } from './media.ts';
import { sharePageRouter } from './share-page.ts';
import type { ApiServices, ApiState } from './context.ts';
import { docsRouter } from './docs.ts';
import { healthRouter } from './health/router.ts';
import { authenticate } from './middleware/auth.ts';
import { errorRenderer } from './middleware/errors.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { requestLog } from './middleware/request-log.ts';
import { API_PREFIX, mountRoutes } from './mount.ts';
import { buildOpenApiDocument } from './openapi.ts';
import type { AnyRoute } from './route.ts';
import { apiRoutes } from './routes.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  models: Models;
  temporal: { connection: Connection; namespace: string };
  /** Where replays and test sends start their workflows (absent: those endpoints answer 503). */
  workflows?: WorkflowTarget;
  /** The clock (tests move it); real time by default. */
  now?: () => Date;
  /** Routes mounted besides the API's own (test fixtures); never in the OpenAPI document. */
  extraRoutes?: readonly AnyRoute[];
  /** Replaces the database-backed limiter (the benchmark measures the API without it). */
  rateLimiter?: RateLimiter;
  /** Where media files live; local disk under DATA_DIR/media by default. */
  mediaStore?: MediaStore;
  /** Extra "in use" checks (tests stand in for areas not built yet). */
  usageChecks?: readonly UsageCheck[];
}

// The areas that make widgets and eCards "in use" add their checks here as they are built.
const USAGE_CHECKS: readonly UsageCheck[] = [];

const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

export function createApp(deps: AppDeps): Koa<ApiState> {
  const now = deps.now ?? (() => new Date());
  const onBackgroundError = (err: unknown) => deps.logger.warn({ err }, 'background write failed');
  const services: ApiServices = {
    config: deps.config,
    logger: deps.logger,
    models: deps.models,
    now,
    keys: createKeyAuthenticator(deps.models, now, onBackgroundError),
    rateLimiter: deps.rateLimiter ?? createRateLimiter(deps.models.sequelize, now, onBackgroundError),
    media: {
      models: deps.models,
      store: deps.mediaStore ?? localDiskStore(join(deps.config.dataDir, 'media')),
      publicBaseUrl: deps.config.publicBaseUrl,
    },
    usageChecks: [...USAGE_CHECKS, ...(deps.usageChecks ?? [])],
    workflows: deps.workflows,
  };
  const api = mountRoutes([...apiRoutes, ...(deps.extraRoutes ?? [])], services);
  const publicRouters: Router<ApiState>[] = [
    healthRouter({ sequelize: deps.models.sequelize, temporal: deps.temporal }),
    docsRouter(buildOpenApiDocument(apiRoutes)),
    mediaRouter(services.media.store),
    sharePageRouter(deps.models, now),
  ];
  const publicAllowed = (path: string) =>
    [...new Set(publicRouters.flatMap((r) => r.match(path, 'GET').path.flatMap((layer) => layer.methods)))];

  const app = new Koa<ApiState>({ proxy: false });
  app.use(requestId());
  app.use(requestLog(deps.logger));
  app.use(errorRenderer(deps.logger, (method, path) => api.routeFor(method, path)?.envelope ?? 'standard'));
  for (const router of publicRouters) app.use(router.routes());
  // Authentication and the rate limit come before routing: an unknown path without a key is 401.
  const auth = authenticate(services.keys);
  const limit = rateLimit(services.rateLimiter, deps.config.rateLimits);
  app.use(async (ctx, next) => {
    if (!isApiPath(ctx.path)) {
      await next();
      return;
    }
    await auth(ctx, async () => {
      await limit(ctx, async () => {
        await next();
      });
    });
  });
  app.use(api.router.routes());
  app.use(async (ctx) => {
    const allowed = [...api.allowedMethods(ctx.path), ...publicAllowed(ctx.path)];
    if (allowed.length) {
      throw new ApiError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; use ${allowed.join(', ')}`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    throw new ApiError(404, 'not_found', `No endpoint at ${ctx.method} ${ctx.path}`);
  });
  return app;
}
