// Liveness and readiness probes (not enveloped, no key).
import Router from '@koa/router';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { checkReadiness, type ReadinessDeps } from '../../services/health.ts';
import { LivenessResponse, ReadinessResponse } from './schema.ts';

export function registerHealthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process is up',
    tags: ['operations'],
    responses: { 200: { description: 'Up', content: { 'application/json': { schema: LivenessResponse } } } },
  });
  registry.registerPath({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: the database and the Temporal namespace answer within 2 s',
    tags: ['operations'],
    responses: {
      200: { description: 'Ready', content: { 'application/json': { schema: ReadinessResponse } } },
      503: { description: 'A dependency is not answering; `checks` names it', content: { 'application/json': { schema: ReadinessResponse } } },
    },
  });
}

export function healthRouter(deps: ReadinessDeps): Router {
  const router = new Router();
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
