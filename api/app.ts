// Builds the Koa application (no listen), so tests can run several in one process: every surface's routes through
// the one route kit (api/http/), behind the middleware every answer shares.
import Koa from 'koa';
import type { Connection } from '@temporalio/client';
import type { KeyAuthenticator } from '../services/api-keys.ts';
import type { ServiceContext } from '../services/context.ts';
import type { RateLimiter } from '../services/rate-limits.ts';
import type { ApiServices, ApiState } from './context.ts';
import { consolePageRoutes } from './console/page-routes.ts';
import { consoleRoutes } from './console/routes.ts';
import { API_PREFIX, mountRoutes } from './http/mount.ts';
import type { AnyRoute } from './http/route.ts';
import { CONSOLE_API_PREFIX, CONSOLE_PREFIX } from './http/session.ts';
import { authenticate } from './middleware/auth.ts';
import { errorRenderer } from './middleware/errors.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { publicPageLimit } from './middleware/public-limit.ts';
import { requestLog } from './middleware/request-log.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { publicRoutes } from './public/routes.ts';
import { WIDGET_API_PREFIX, widgetApiRoutes } from './widgets/public/routes.ts';
import { apiRoutes } from './routes.ts';

export interface AppOptions {
  /** A Temporal connection for /readyz alone (no retries; see lib/temporal.ts). */
  readinessProbe: Connection;
  /** The API keys' authenticator (built by the composition root, app/runtime.ts). */
  keys: KeyAuthenticator;
  /** The per-key rate limiter (built by the composition root; the benchmark passes one that allows everything). */
  rateLimiter: RateLimiter;
  /** Routes mounted besides the API's own (test fixtures); never in the OpenAPI document. */
  extraRoutes?: readonly AnyRoute[];
}

const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

export function createApp(context: ServiceContext, options: AppOptions): Koa<ApiState> {
  const services: ApiServices = { ...context, keys: options.keys, rateLimiter: options.rateLimiter };
  const keyRoutes = [...apiRoutes, ...(options.extraRoutes ?? [])];
  // Group order: public pages, the console (its API, then its pages: its session, never a key), the widget's API
  // (no key, no session), the key API.
  const routes = mountRoutes(
    [
      { prefix: '', routes: publicRoutes(keyRoutes, options.readinessProbe) },
      { prefix: CONSOLE_API_PREFIX, routes: consoleRoutes },
      { prefix: CONSOLE_PREFIX, routes: consolePageRoutes },
      { prefix: WIDGET_API_PREFIX, routes: widgetApiRoutes },
      { prefix: API_PREFIX, routes: keyRoutes },
    ],
    services,
  );

  // TRUST_PROXY: X-Forwarded-Proto says whether the client came over https (the console's cookie flags).
  // The client's address behind it is the last X-Forwarded-For hop, the one the proxy wrote (the rest the client did).
  const app = new Koa<ApiState>({ proxy: services.config.trustProxy, maxIpsCount: 1 });
  app.use(securityHeaders());
  app.use(requestId());
  app.use(requestLog(services.logger));
  app.use(errorRenderer(services.logger, routes.envelopeFor));
  app.use(publicPageLimit(services.config.publicRateLimit, () => services.now().getTime()));
  app.use(routes.group(0));
  app.use(routes.group(1));
  app.use(routes.group(2));
  app.use(routes.group(3));
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
  app.use(routes.group(4));
  app.use(routes.fallback);
  return app;
}
