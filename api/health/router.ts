// Liveness and readiness probes (not enveloped, no key).
import type { Connection } from '@temporalio/client';
import { checkReadiness } from '../../services/health.ts';
import { defineFile, type AnyRoute } from '../http/route.ts';
import { LivenessResponse, ReadinessResponse } from './schema.ts';

/** `probe`: a Temporal connection of its own, without retries (see lib/temporal.ts). */
export function healthRoutes(probe: Connection): AnyRoute[] {
  return [
    defineFile({
      method: 'get',
      path: '/healthz',
      handler: async () => ({ body: LivenessResponse.parse({ status: 'ok' }) }),
    }),
    defineFile({
      method: 'get',
      path: '/readyz',
      async handler(_input, { services }) {
        const { ready, checks } = await checkReadiness(services, probe);
        return { status: ready ? 200 : 503, body: ReadinessResponse.parse({ status: ready ? 'ready' : 'unavailable', checks }) };
      },
    }),
  ];
}
