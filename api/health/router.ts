// Liveness and readiness probes (not enveloped, no key).
import Router from '@koa/router';
import { checkReadiness, type ReadinessDeps } from '../../services/health.ts';

export function healthRouter(deps: ReadinessDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const { ready, checks } = await checkReadiness(deps);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'unavailable', checks };
  });
  return router;
}
