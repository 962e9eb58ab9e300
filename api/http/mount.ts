// Turns route definitions of every surface into Koa middleware, in one place: surface auth (a key's caller is set
// before routing, see api/app.ts) → scope → body → validate → step-up → handler → answer; and answers, for any
// path, which route a request would reach (its failures' envelope) and which methods a path allows (405).
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { z } from 'zod';
import { type ApiError, invalidIdempotencyKey, invalidParameter, keyOutOfScope, methodNotAllowed, notFound, sessionRequired as sessionRequiredError } from '../../lib/errors.ts';
import { deepStrict } from '../../lib/zod-strict.ts';
import type { Permissions } from '../../models/ApiKey.ts';
import type { ConsoleSession } from '../../models/ConsoleSession.ts';
import { csrfTokenOf, findSession, requireStepUp, sessionAccount } from '../../services/console/sessions.ts';
import { memberAccounts, sessionRole } from '../../services/team/members.ts';
import { levelAllows, type Role } from '../../services/team/roles.ts';
import type { ApiServices, ApiState } from '../context.ts';
import { readFormBody, readJsonBody } from './body.ts';
import { htmlErrors, writeEnvelope, writeFile, writePage } from './answer.ts';
import {
  answerOf,
  capabilityOf,
  surfaceOf,
  type Access,
  type AnyFileRoute,
  type AnyKeyRoute,
  type AnyPublicRoute,
  type AnyRoute,
  type AnyWidgetRoute,
  type AnySessionPage,
  type AnySessionRoute,
  type Envelope,
  type KoaContext,
  type PageResult,
  type PublicPageDefinition,
  type SessionContext,
  type StepUpNeed,
} from './route.ts';
import { auditDenied, auditSuccess, declaredAction, keyActor, originOf, sessionActor } from './audit.ts';
import { checkOrigin, isForeignOrigin, isUnsafe, readSessionCookie, signInCsrfCookie } from './session-cookie.ts';
import {
  checkCsrf,
  checkRole,
  formCsrf,
  isRoleRefusal,
  pageSessionOf,
  roleRefusal,
  roleRefusedPage,
  readMe,
  signInPageLocation,
  stepUpFresh,
  stepUpLocation,
  StepUpRequired,
} from './session.ts';
import { filledQuery, parseInput } from './validation.ts';

export const API_PREFIX = '/v2/api';

/** Routes served under one path prefix (the key API, the console API, the console pages, the public pages). */
export interface RouteGroup {
  prefix: string;
  routes: readonly AnyRoute[];
}

export function checkAccess(access: Access, key: { full_access: boolean; permissions: Permissions }): void {
  if (access === 'any_key' || key.full_access) return;
  if (levelAllows(key.permissions[access.area], access.level)) return;
  const capability = capabilityOf(access);
  throw keyOutOfScope(`This API key lacks the ${capability} capability (${access.area}: ${access.level})`);
}

// Checks a success against the declared schemas made strict (built once per route): a field the contract does
// not name is a 500.
function responseChecker(where: string, response: z.ZodType, meta: z.ZodType | undefined): (data: unknown, meta: unknown) => void {
  const strictData = deepStrict(response);
  const strictMeta = meta ? deepStrict(meta) : undefined;
  return (data, shownMeta) => {
    const problems = [strictData.safeParse(data), strictMeta?.safeParse(shownMeta)].filter((r) => r && !r.success);
    if (problems.length) throw new Error(`${where} answered outside its schema: ${problems.map((p) => p!.error!.message).join('; ')}`);
  };
}

/** Koa's context as routes see it (the router has set its params). */
const koaOf = (ctx: unknown) => ctx as KoaContext;

/** A declared header's refusal by name (the catalogue fixes its code and status); any other is invalid_parameter. */
const HEADER_ERRORS: Record<string, (message: string) => ApiError> = { 'Idempotency-Key': invalidIdempotencyKey };

/** Declared request headers by name; a value outside its schema is 400 `invalid_<name>` with the schema's message. */
function parseHeaders(schema: z.ZodType, ctx: Context): unknown {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const values = Object.fromEntries(Object.keys(shape).map((name) => [name, ctx.req.headers[name.toLowerCase()]]));
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw (HEADER_ERRORS[String(issue.path[0])] ?? invalidParameter)(issue.message);
}

/**
 * The one body reader: the route's own (an upload), else JSON (the APIs) or an urlencoded form (pages); each
 * within the route's limit (413), of its type (415), and JSON at most MAX_JSON_DEPTH deep.
 */
function readBody(route: { readBody?: (koa: Context, limit: number) => Promise<unknown> }, koa: Context, limit: number, kind: 'json' | 'form'): Promise<unknown> {
  if (route.readBody) return route.readBody(koa, limit);
  return kind === 'json' ? readJsonBody(koa, limit) : readFormBody(koa, limit);
}

type Contracts = { params?: z.ZodType | undefined; query?: z.ZodType | undefined; body?: z.ZodType | undefined; headers?: z.ZodType | undefined };

function parseContracts(route: Contracts, ctx: Context, raw: unknown, query: unknown = ctx.query) {
  return {
    params: route.params ? parseInput(route.params, koaOf(ctx).params, 'path') : undefined,
    query: route.query ? parseInput(route.query, query, 'query') : undefined,
    body: route.body ? parseInput(route.body, raw, 'body') : undefined,
    headers: route.headers ? parseHeaders(route.headers, ctx) : undefined,
  };
}

const unwrap = (result: unknown, hasMeta: boolean): [unknown, unknown] =>
  hasMeta ? [(result as { data: unknown }).data, (result as { meta: unknown }).meta] : [result, undefined];


function keyRoute(route: AnyKeyRoute, where: string, services: ApiServices): Middleware<ApiState> {
  const bodyLimit = route.bodyLimitBytes ?? services.config.bodyLimitBytes;
  const checkResponse = services.config.strictResponses ? responseChecker(where, route.response, route.meta) : undefined;
  const answer = route.answer === 'flat' ? 'flat' : 'standard';
  const action = declaredAction(route.audit);
  return async (ctx) => {
    const caller = ctx.state.caller;
    if (!caller) throw new Error('route reached without an authenticated caller');
    try {
      checkAccess(route.access, caller.apiKey);
    } catch (err) {
      if (route.access !== 'any_key') await auditDenied(services, { accountId: caller.account.id, actor: keyActor(caller), ctx, surface: 'api', required: capabilityOf(route.access) });
      throw err;
    }
    const raw = route.method === 'get' ? undefined : await readBody(route, ctx, bodyLimit, 'json');
    const input = parseContracts(route, ctx, raw);
    const result = await route.handler(input, { services, caller, requestId: ctx.state.requestId, koa: koaOf(ctx) });
    const [data, meta] = unwrap(result, Boolean(route.meta));
    checkResponse?.(data, meta);
    if (action) await auditSuccess(services, { accountId: caller.account.id, liveAccountId: caller.account.live_account_id ?? caller.account.id, actor: keyActor(caller), action, params: input.params, data, origin: originOf(ctx, 'api') });
    writeEnvelope(ctx, answer, data, meta);
  };
}

/** `checkStepUp`: the API's refusal (403) or a page's (a 303 to the step-up page), when the step-up is not fresh. */
function sessionContext(services: ApiServices, session: ConsoleSession, role: Role, account: SessionContext['account'], ctx: KoaContext, checkStepUp: (need: StepUpNeed) => void): SessionContext {
  return {
    services,
    session,
    role,
    requireRole: (need) => checkRole(role, need),
    account,
    me: (other) => (other ? readMe(services, other) : readMe(services, session, account)),
    requireStepUp: checkStepUp,
    requestId: ctx.state.requestId as string,
    koa: koaOf(ctx),
  };
}

const sessionRequired = () => sessionRequiredError('Sign in to the console first (POST /v2/console/api/sign-in)');

function sessionRoute(route: AnySessionRoute, where: string, services: ApiServices): Middleware<ApiState> {
  const bodyLimit = route.bodyLimitBytes ?? services.config.bodyLimitBytes;
  const checkResponse = services.config.strictResponses ? responseChecker(where, route.response, route.meta) : undefined;
  const action = declaredAction(route.audit);
  return async (ctx) => {
    // Whatever a console answer holds (keys, tokens, secrets) is not for caches.
    ctx.set('Cache-Control', 'no-store');
    const session = await findSession(services, readSessionCookie(ctx));
    // A member removed from the account is signed out of it at once.
    const role = session && (await sessionRole(services, session));
    if (!session || !role) throw sessionRequired();
    if (isUnsafe(ctx.method)) {
      checkOrigin(ctx, services.config.publicBaseUrl);
      checkCsrf(ctx.get('X-CSRF-Token') || undefined, csrfTokenOf(session), 'The CSRF token is missing or wrong (GET /v2/console/api/me gives it)');
    }
    const refusal = roleRefusal(role, route.role);
    if (refusal) {
      await auditDenied(services, { accountId: session.account_id, actor: await sessionActor(services, session), ctx, surface: 'console', required: String(refusal.extra.required) });
      throw refusal;
    }
    const account = await sessionAccount(services, session);
    const raw = route.method === 'get' ? undefined : await readBody(route, ctx, bodyLimit, 'json');
    const input = parseContracts(route, ctx, raw);
    const context = sessionContext(services, session, role, account, koaOf(ctx), (need) => requireStepUp(services, session, need.action));
    if (route.access?.stepUp) context.requireStepUp({ action: route.access.stepUp });
    const [data, meta] = unwrap(await route.handler(input, context), Boolean(route.meta));
    checkResponse?.(data, meta);
    if (action) await auditSuccess(services, { accountId: account.id, liveAccountId: session.account_id, actor: await sessionActor(services, session), action, params: input.params, data, origin: originOf(ctx, 'console') });
    writeEnvelope(ctx, 'standard', data, meta);
  };
}

function publicRoute(route: AnyPublicRoute, where: string, services: ApiServices): Middleware<ApiState> {
  const bodyLimit = route.bodyLimitBytes ?? services.config.bodyLimitBytes;
  const checkResponse = services.config.strictResponses ? responseChecker(where, route.response, undefined) : undefined;
  return async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (isUnsafe(ctx.method)) {
      checkOrigin(ctx, services.config.publicBaseUrl);
      if (route.csrf === 'sign-in') checkCsrf(ctx.get('X-CSRF-Token') || undefined, signInCsrfCookie(ctx) ?? '\u0000', 'The CSRF token is missing or wrong (GET /v2/console/api/csrf gives one)');
    }
    const raw = route.method === 'get' ? undefined : await readBody(route, ctx, bodyLimit, 'json');
    const input = parseContracts(route, ctx, raw);
    const data = await route.handler(input as never, { services, requestId: ctx.state.requestId, koa: koaOf(ctx) });
    checkResponse?.(data, undefined);
    writeEnvelope(ctx, 'standard', data, undefined);
  };
}

function widgetRoute(route: AnyWidgetRoute, where: string, services: ApiServices): Middleware<ApiState> {
  const bodyLimit = route.bodyLimitBytes ?? services.config.bodyLimitBytes;
  const checkResponse = services.config.strictResponses ? responseChecker(where, route.response, route.meta) : undefined;
  const answer = route.answer === 'flat' ? 'flat' : 'standard';
  return async (ctx) => {
    // The widget's page and API set no cookies and are never cached (every answer carries a fresh form token).
    ctx.set('Cache-Control', 'no-store');
    // The page calls its API from its own origin; a browser posting from another site is refused (a client that
    // is no browser sends no Origin: the form token and the abuse controls apply to it alike).
    if (isUnsafe(ctx.method) && isForeignOrigin(ctx, services.config.publicBaseUrl)) checkOrigin(ctx, services.config.publicBaseUrl);
    const raw = route.method === 'get' ? undefined : await readBody(route, ctx, bodyLimit, 'json');
    const input = parseContracts(route, ctx, raw);
    const result = await route.handler(input as never, { services, requestId: ctx.state.requestId, koa: koaOf(ctx), clientIp: ctx.ip });
    const [data, meta] = unwrap(result, Boolean(route.meta));
    checkResponse?.(data, meta);
    writeEnvelope(ctx, answer, data, meta);
  };
}

function sessionPage(route: AnySessionPage, services: ApiServices): Middleware<ApiState> {
  const bodyLimit = route.bodyLimitBytes ?? services.config.bodyLimitBytes;
  const action = declaredAction(route.audit);
  return (ctx) =>
    htmlErrors(ctx, async () => {
      const session = await findSession(services, readSessionCookie(ctx));
      // The person's accounts (the header's switch form) and, among them, their role in this one.
      const accounts = session ? await memberAccounts(services, session.owner_id) : [];
      const role = accounts.find((a) => a.account_id === session?.account_id)?.role;
      if (!session || !role) return writePage(ctx, { seeOther: signInPageLocation(ctx) });
      const page = pageSessionOf(session, await readMe(services, session), role, accounts);
      // Before the form is read: a refused form's body (a multipart upload) is never taken in.
      const refusal = roleRefusal(role, route.role);
      if (refusal) {
        await auditDenied(services, { accountId: session.account_id, actor: await sessionActor(services, session, page.me.owner_email), ctx, surface: 'console', required: String(refusal.extra.required) });
        return writePage(ctx, roleRefusedPage(refusal), page);
      }
      let raw: unknown;
      if (isUnsafe(ctx.method)) {
        checkOrigin(ctx, services.config.publicBaseUrl);
        raw = await readBody(route, ctx, bodyLimit, 'form');
        checkCsrf(formCsrf(raw), page.csrf, 'The form is out of date (its CSRF token is missing or wrong): reload the page and try again');
      }
      const form = raw && !(raw instanceof FormData) ? (raw as Record<string, string>) : {};
      const query = route.fromQuery ? route.fromQuery(ctx.query) : filledQuery(ctx.query);
      const input = parseContracts(route, ctx, route.fromForm ? route.fromForm(form) : form, query);
      const context = { ...sessionContext(services, session, role, page.account, koaOf(ctx), (need) => {
        if (!stepUpFresh(services, session)) throw new StepUpRequired(need);
      }), page };
      let result: PageResult;
      try {
        if (route.access) context.requireStepUp({ action: route.access.stepUp, ...(route.access.back ? { back: route.access.back } : {}) });
        result = await route.handler({ ...input, form, raw } as never, context);
        // A page shows a refused form again with its status (422): only a success is written.
        if (action && !('view' in result && (result.status ?? 200) >= 400) && !('framed' in result && (result.framed.status ?? 200) >= 400)) {
          await auditSuccess(services, { accountId: page.account.id, liveAccountId: session.account_id, actor: await sessionActor(services, session, page.me.owner_email), action, params: input.params, data: undefined, origin: originOf(ctx, 'console') });
        }
      } catch (err) {
        if (isRoleRefusal(err)) result = roleRefusedPage(err);
        else if (err instanceof StepUpRequired) result = { seeOther: stepUpLocation(err.need.back ?? ctx.path) };
        else throw err;
      }
      writePage(ctx, result, page);
    });
}

function publicPage(route: PublicPageDefinition, services: ApiServices): Middleware<ApiState> {
  const bodyLimit = route.bodyLimitBytes ?? services.config.bodyLimitBytes;
  return (ctx) =>
    htmlErrors(ctx, async () => {
      let form: Record<string, string> = {};
      if (isUnsafe(ctx.method)) {
        checkOrigin(ctx, services.config.publicBaseUrl);
        form = (await readBody(route, ctx, bodyLimit, 'form')) as Record<string, string>;
        if (route.csrf === 'sign-in') checkCsrf(form._csrf, signInCsrfCookie(ctx) ?? '\u0000', 'The sign-in form is out of date: reload it and try again');
      }
      writePage(ctx, await route.handler({ form }, { services, requestId: ctx.state.requestId, koa: koaOf(ctx) }));
    });
}

function fileRoute(route: AnyFileRoute, services: ApiServices): Middleware<ApiState> {
  return async (ctx, next: Next) => {
    // Public paths carry bearer tokens and file names as they are: their handlers answer unknown ones (no 400s).
    const params = route.params ? route.params.parse(koaOf(ctx).params) : undefined;
    const result = await route.handler({ params }, { services, requestId: ctx.state.requestId, koa: koaOf(ctx) });
    if (result === null) await next();
    else writeFile(ctx, result);
  };
}

function routeMiddleware(route: AnyRoute, where: string, services: ApiServices): Middleware<ApiState> {
  const surface = surfaceOf(route);
  const answer = answerOf(route);
  if (surface === 'widget') return widgetRoute(route as AnyWidgetRoute, where, services);
  if (surface === 'key') return keyRoute(route as AnyKeyRoute, where, services);
  if (answer === 'file') return fileRoute(route as AnyFileRoute, services);
  if (answer === 'page') return surface === 'session' ? sessionPage(route as AnySessionPage, services) : publicPage(route as PublicPageDefinition, services);
  return surface === 'session' ? sessionRoute(route as AnySessionRoute, where, services) : publicRoute(route as AnyPublicRoute, where, services);
}

type RouterMiddleware = ReturnType<Router<ApiState>['routes']>;

/** A router that runs only for paths under its prefix: a key API request never walks the console's routes. */
function onlyUnder(prefix: string, routes: RouterMiddleware): Middleware<ApiState> {
  if (prefix === '') return routes as unknown as Middleware<ApiState>;
  // The router fills in its own context fields (params, the matched route) as Koa's app.use does.
  return async (ctx, next) => {
    if (ctx.path === prefix || ctx.path.startsWith(`${prefix}/`)) await routes(ctx as Parameters<RouterMiddleware>[0], next);
    else await next();
  };
}

export interface MountedRoutes {
  /** The middleware of one group (by its position in the list given to mountRoutes). */
  group(index: number): Middleware<ApiState>;
  /** The envelope a request's failures are written in: its route's (flat for send-ecard), else standard. */
  envelopeFor: (method: string, path: string) => Envelope;
  /** Methods allowed on a path that exists (for 405), or [] when no route has that path. */
  allowedMethods(path: string): string[];
  /** Last in the chain: 405 with Allow when the path exists with other methods, else 404. */
  fallback: Middleware<ApiState>;
}

export function mountRoutes(groups: readonly RouteGroup[], services: ApiServices): MountedRoutes {
  const byKey = new Map<string, AnyRoute>();
  const routers = groups.map(({ prefix, routes }) => {
    const router = new Router<ApiState>(prefix ? { prefix } : {});
    for (const route of routes) {
      const method = route.method.toUpperCase();
      const where = `${method} ${prefix}${route.path}`;
      router.register(route.path, [method], routeMiddleware(route, where, services));
      byKey.set(`${method} ${router.stack[router.stack.length - 1]!.path}`, route);
    }
    return router;
  });
  const middleware = routers.map((router, i) => onlyUnder(groups[i]!.prefix, router.routes()));
  const allowedMethods = (path: string) => [...new Set(routers.flatMap((router) => router.match(path, 'GET').path.flatMap((layer) => layer.methods)))];
  return {
    group: (index) => middleware[index]!,
    envelopeFor(method, path) {
      for (const router of routers) {
        const layer = router.match(path, method.toUpperCase()).pathAndMethod[0];
        const route = layer && byKey.get(`${method.toUpperCase()} ${layer.path}`);
        if (route) return answerOf(route) === 'flat' ? 'flat' : 'standard';
      }
      return 'standard';
    },
    allowedMethods,
    fallback: async (ctx) => {
      const allowed = allowedMethods(ctx.path);
      if (allowed.length) {
        throw methodNotAllowed(`${ctx.method} is not allowed on ${ctx.path}; use ${allowed.join(', ')}`, { headers: { Allow: allowed.join(', ') } });
      }
      throw notFound(`No endpoint at ${ctx.method} ${ctx.path}`);
    },
  };
}

