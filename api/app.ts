// Builds the Koa application (no listen), so tests can run several in one process.
import Koa, { type Middleware, type Next } from 'koa';
import type Router from '@koa/router';
import type { Connection } from '@temporalio/client';
import { methodNotAllowed, notFound } from '../lib/errors.ts';
import { createKeyAuthenticator } from '../services/api-keys.ts';
import type { ServiceContext } from '../services/context.ts';
import { createRateLimiter, type RateLimiter } from '../services/rate-limits.ts';
import { giftClaimPageRouter } from './gift-claim-page.ts';
import { mediaRouter } from './media.ts';
import { sharePageRouter } from './share-page.ts';
import { unsubscribePageRouter } from './unsubscribe-page.ts';
import type { ApiServices, ApiState } from './context.ts';
import { mountConsoleRoutes } from './console/mount.ts';
import { consolePageRouters } from './console/pages/routers.ts';
import { consoleRoutes } from './console/routes.ts';
import { docsRouter } from './docs.ts';
import { healthRouter } from './health/router.ts';
import { authenticate } from './middleware/auth.ts';
import { errorRenderer } from './middleware/errors.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { publicPageLimit } from './middleware/public-limit.ts';
import { requestLog } from './middleware/request-log.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { API_PREFIX, mountRoutes } from './mount.ts';
import { buildOpenApiDocument } from './openapi.ts';
import type { AnyRoute } from './route.ts';
import { apiRoutes } from './routes.ts';

export interface AppOptions {
  /** A Temporal connection for /readyz alone (no retries; see lib/temporal.ts). */
  readinessProbe: Connection;
  /** Routes mounted besides the API's own (test fixtures); never in the OpenAPI document. */
  extraRoutes?: readonly AnyRoute[];
  /** Replaces the database-backed limiter (the benchmark measures the API without it). */
  rateLimiter?: RateLimiter;
}

const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

type RouterMiddleware = ReturnType<Router<ApiState>['routes']>;

/** Routers that run only for paths under the prefix: a key API request never walks the console's routes. */
function onlyUnder(prefix: string, chain: RouterMiddleware[]): Middleware<ApiState> {
  const run = (ctx: Parameters<RouterMiddleware>[0], next: Next, at: number): Promise<void> =>
    at === chain.length ? next() : Promise.resolve(chain[at]!(ctx, () => run(ctx, next, at + 1)));
  // The routers fill in their own context fields (params, the matched route) as Koa's app.use does.
  return (ctx, next) => (ctx.path === prefix || ctx.path.startsWith(`${prefix}/`) ? run(ctx as Parameters<RouterMiddleware>[0], next, 0) : next());
}

export function createApp(context: ServiceContext, options: AppOptions): Koa<ApiState> {
  const onBackgroundError = (err: unknown) => context.logger.warn({ err }, 'background write failed');
  const services: ApiServices = {
    ...context,
    keys: createKeyAuthenticator(context.models, context.now, onBackgroundError),
    rateLimiter: options.rateLimiter ?? createRateLimiter(context.models.sequelize, context.now, onBackgroundError),
  };
  const api = mountRoutes([...apiRoutes, ...(options.extraRoutes ?? [])], services);
  const consoleApi = mountConsoleRoutes(consoleRoutes, services);
  const publicRouters: Router<ApiState>[] = [
    healthRouter(services, options.readinessProbe),
    docsRouter(buildOpenApiDocument(apiRoutes)),
    mediaRouter(services.mediaStore),
    sharePageRouter(services),
    unsubscribePageRouter(services),
    giftClaimPageRouter(services),
  ];
  const publicAllowed = (path: string) =>
    [...new Set(publicRouters.flatMap((r) => r.match(path, 'GET').path.flatMap((layer) => layer.methods)))];

  // TRUST_PROXY: X-Forwarded-Proto says whether the client came over https (the console's cookie flags).
  // The client's address behind it is the last X-Forwarded-For hop, the one the proxy wrote (the rest the client did).
  const app = new Koa<ApiState>({ proxy: services.config.trustProxy, maxIpsCount: 1 });
  app.use(securityHeaders());
  app.use(requestId());
  app.use(requestLog(services.logger));
  app.use(errorRenderer(services.logger, (method, path) => api.routeFor(method, path)?.envelope ?? 'standard'));
  app.use(publicPageLimit(services.config.publicRateLimit, () => services.now().getTime()));
  for (const router of publicRouters) app.use(router.routes());
  // The console: its session, never a key (before the key authentication, which covers /v2/api only).
  app.use(onlyUnder('/v2/console', [consoleApi.router.routes(), ...consolePageRouters(services).map((router) => router.routes())]));
  // Authentication and the rate limit come before routing: an unknown path without a key is 401.
  const auth = authenticate(services.keys);
  const limit = rateLimit(services.rateLimiter, services.config.rateLimits);
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
    const allowed = [...api.allowedMethods(ctx.path), ...consoleApi.allowedMethods(ctx.path), ...publicAllowed(ctx.path)];
    if (allowed.length) {
      throw methodNotAllowed(`${ctx.method} is not allowed on ${ctx.path}; use ${allowed.join(', ')}`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    throw notFound(`No endpoint at ${ctx.method} ${ctx.path}`);
  });
  return app;
}
