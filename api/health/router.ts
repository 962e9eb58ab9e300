// Liveness and readiness probes (not enveloped, no key).
import Router from '@koa/router';
import type { Connection } from '@temporalio/client';
import type { ServiceContext } from '../../services/context.ts';
import { checkReadiness } from '../../services/health.ts';
import type { ApiState } from '../context.ts';
import { LivenessResponse, ReadinessResponse } from './schema.ts';

/** `probe`: a Temporal connection of its own, without retries (see lib/temporal.ts). */
export function healthRouter(services: ServiceContext, probe: Connection): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/healthz', (ctx) => {
    ctx.body = LivenessResponse.parse({ status: 'ok' });
  });
  router.get('/readyz', async (ctx) => {
    const { ready, checks } = await checkReadiness(services, probe);
    ctx.status = ready ? 200 : 503;
    ctx.body = ReadinessResponse.parse({ status: ready ? 'ready' : 'unavailable', checks });
  });
  return router;
}
