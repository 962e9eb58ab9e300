// Turns console route definitions into Koa middleware: session → same-origin and CSRF checks (unsafe methods) →
// body → validate → handler → envelope. A Bearer key means nothing here; the account comes from the session.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { csrfInvalid, sessionRequired as sessionRequiredError } from '../../lib/errors.ts';
import { deepStrict } from '../../lib/zod-strict.ts';
import { csrfTokenOf, findSession, sameSecret, sessionAccount } from '../../services/console/sessions.ts';
import { readJsonBody } from '../body.ts';
import type { ApiServices, ApiState } from '../context.ts';
import { successBody } from '../envelope.ts';
import { parseInput } from '../validation.ts';
import type { AnyConsoleRoute } from './route.ts';
import { checkOrigin, isUnsafe, readSessionCookie, signInCsrfCookie } from './session-cookie.ts';

export const CONSOLE_API_PREFIX = '/v2/console/api';

const sessionRequired = () => sessionRequiredError('Sign in to the console first (POST /v2/console/api/sign-in)');

function routeMiddleware(route: AnyConsoleRoute, services: ApiServices): Middleware<ApiState> {
  const bodyLimit = route.auth === 'session' ? (route.bodyLimitBytes ?? services.config.bodyLimitBytes) : services.config.bodyLimitBytes;
  const strict = services.config.strictResponses ? deepStrict(route.response) : undefined;
  return async (ctx) => {
    // Whatever a console answer holds (keys, tokens, secrets) is not for caches.
    ctx.set('Cache-Control', 'no-store');
    const unsafe = isUnsafe(ctx.method);
    let result: unknown;
    if (route.auth === 'public') {
      if (unsafe) checkOrigin(ctx, services.config.publicBaseUrl);
      if (unsafe && !sameSecret(ctx.get('X-CSRF-Token') || undefined, signInCsrfCookie(ctx) ?? '\u0000')) {
        throw csrfInvalid('The CSRF token is missing or wrong (GET /v2/console/api/csrf gives one)');
      }
      const raw = route.method === 'get' ? undefined : await readJsonBody(ctx, bodyLimit);
      result = await route.handler({ body: route.body ? parseInput(route.body, raw, 'body') : undefined }, { services, koa: ctx });
    } else {
      const session = await findSession(services, readSessionCookie(ctx));
      if (!session) throw sessionRequired();
      if (unsafe) checkOrigin(ctx, services.config.publicBaseUrl);
      if (unsafe && !sameSecret(ctx.get('X-CSRF-Token') || undefined, csrfTokenOf(session))) {
        throw csrfInvalid('The CSRF token is missing or wrong (GET /v2/console/api/me gives it)');
      }
      const account = await sessionAccount(services.models, session);
      const raw = route.method === 'get' ? undefined : route.readBody ? await route.readBody(ctx, bodyLimit) : await readJsonBody(ctx, bodyLimit);
      const input = {
        params: route.params ? parseInput(route.params, ctx.params, 'path') : undefined,
        query: route.query ? parseInput(route.query, ctx.query, 'query') : undefined,
        body: route.body ? parseInput(route.body, raw, 'body') : undefined,
      };
      result = await route.handler(input, { services, session, account, koa: ctx });
    }
    const [data, meta] = route.auth === 'session' && route.meta ? [(result as { data: unknown }).data, (result as { meta: unknown }).meta] : [result, undefined];
    if (strict) {
      const checked = strict.safeParse(data);
      if (!checked.success) throw new Error(`${route.method.toUpperCase()} ${CONSOLE_API_PREFIX}${route.path} answered outside its schema: ${checked.error.message}`);
    }
    ctx.status = 200;
    ctx.body = successBody('standard', data, meta);
  };
}

export interface MountedConsole {
  router: Router<ApiState>;
  allowedMethods(path: string): string[];
}

export function mountConsoleRoutes(routes: readonly AnyConsoleRoute[], services: ApiServices): MountedConsole {
  const router = new Router<ApiState>({ prefix: CONSOLE_API_PREFIX });
  for (const route of routes) router.register(route.path, [route.method.toUpperCase()], routeMiddleware(route, services));
  return {
    router,
    allowedMethods(path) {
      const methods = new Set(router.match(path, 'GET').path.flatMap((layer) => layer.methods));
      return [...methods].filter((m) => m !== 'HEAD' || methods.has('GET'));
    },
  };
}
