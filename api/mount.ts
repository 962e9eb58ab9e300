// Turns route definitions into Koa middleware: scope → body → validate → handler → envelope.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { keyOutOfScope } from '../lib/errors.ts';
import { deepStrict } from '../lib/zod-strict.ts';
import type { Permissions } from '../models/ApiKey.ts';
import { readJsonBody } from './body.ts';
import type { ApiServices, ApiState } from './context.ts';
import { successBody } from './envelope.ts';
import { capabilityOf, type Access, type AnyRoute } from './route.ts';
import { parseInput } from './validation.ts';

export const API_PREFIX = '/v2/api';

export function checkAccess(access: Access, key: { full_access: boolean; permissions: Permissions }): void {
  if (access === 'any_key' || key.full_access) return;
  const level = key.permissions[access.area];
  if (level === 'manage' || (level === 'view' && access.level === 'view')) return;
  const capability = capabilityOf(access);
  throw keyOutOfScope(`This API key lacks the ${capability} capability (${access.area}: ${access.level})`);
}

// Checks a success against the declared schemas made strict (built once per route): a field the contract does
// not name is a 500.
function responseChecker(route: AnyRoute): (data: unknown, meta: unknown) => void {
  const strictData = deepStrict(route.response);
  const strictMeta = route.meta ? deepStrict(route.meta) : undefined;
  return (data, meta) => {
    const problems = [strictData.safeParse(data), strictMeta?.safeParse(meta)].filter((r) => r && !r.success);
    if (problems.length) {
      throw new Error(`${route.method.toUpperCase()} ${route.path} answered outside its schema: ${problems.map((p) => p!.error!.message).join('; ')}`);
    }
  };
}

function routeMiddleware(route: AnyRoute, services: ApiServices): Middleware<ApiState> {
  const bodyLimit = route.bodyLimitBytes ?? services.config.bodyLimitBytes;
  const checkResponse = services.config.strictResponses ? responseChecker(route) : undefined;
  return async (ctx) => {
    const caller = ctx.state.caller;
    if (!caller) throw new Error('route reached without an authenticated caller');
    checkAccess(route.access, caller.apiKey);
    const rawBody = route.method === 'get' ? undefined : await readJsonBody(ctx, bodyLimit);
    const input = {
      params: route.params ? parseInput(route.params, ctx.params, 'path') : undefined,
      query: route.query ? parseInput(route.query, ctx.query, 'query') : undefined,
      body: route.body ? parseInput(route.body, rawBody, 'body') : undefined,
    };
    const result = await route.handler(input, { services, caller, requestId: ctx.state.requestId, koa: ctx });
    const [data, meta] = route.meta ? [(result as { data: unknown }).data, (result as { meta: unknown }).meta] : [result, undefined];
    checkResponse?.(data, meta);
    ctx.status = 200;
    ctx.body = successBody(route.envelope ?? 'standard', data, meta);
  };
}

export interface MountedApi {
  router: Router<ApiState>;
  /** The route a request would reach, for rendering its failures in the route's envelope. */
  routeFor(method: string, path: string): AnyRoute | undefined;
  /** Methods allowed on a path that exists (for 405), or [] when no route has that path. */
  allowedMethods(path: string): string[];
}

export function mountRoutes(routes: readonly AnyRoute[], services: ApiServices): MountedApi {
  const router = new Router<ApiState>({ prefix: API_PREFIX });
  const byKey = new Map<string, AnyRoute>();
  for (const route of routes) {
    const method = route.method.toUpperCase();
    router.register(route.path, [method], routeMiddleware(route, services));
    byKey.set(`${method} ${API_PREFIX}${route.path}`, route);
  }
  return {
    router,
    routeFor(method, path) {
      const layer = router.match(path, method.toUpperCase()).pathAndMethod[0];
      return layer ? byKey.get(`${method.toUpperCase()} ${layer.path}`) : undefined;
    },
    allowedMethods(path) {
      const methods = new Set(router.match(path, 'GET').path.flatMap((layer) => layer.methods));
      return [...methods].filter((m) => m !== 'HEAD' || methods.has('GET'));
    },
  };
}
