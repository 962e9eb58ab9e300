// Liveness and readiness probes (not enveloped, no key).
import Router from '@koa/router';
import { checkReadiness, type ReadinessDeps } from '../../services/health.ts';
import type { ApiState } from '../context.ts';
import { LivenessResponse, ReadinessResponse } from './schema.ts';

export function healthRouter(deps: ReadinessDeps): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/healthz', (ctx) => {
    ctx.body = LivenessResponse.parse({ status: 'ok' });
  });
  router.get('/readyz', async (ctx) => {
    const { ready, checks } = await checkReadiness(deps);
    ctx.status = ready ? 200 : 503;
    ctx.body = ReadinessResponse.parse({ status: ready ? 'ready' : 'unavailable', checks });
  });
  return router;
}
