// The one way to write an endpoint, on every surface: a route names its surface (who may call it), its access (a
// key's scope, a session's step-up), its zod contracts (params, query, body, headers), its answer kind and its
// handler, once; api/http/mount.ts turns it into `surface auth → (rate limit) → scope → validate → step-up →
// handler → answer` and api/openapi.ts documents the key surface's routes.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Account } from '../../models/Account.ts';
import type { Area } from '../../models/ApiKey.ts';
import type { ConsoleSession } from '../../models/ConsoleSession.ts';
import type { User } from '../../models/User.ts';
import type { ApiServices, Caller } from '../context.ts';
import type { PageData } from '../console/kit/render.ts';
import type { Role, RoleNeed } from '../../services/team/roles.ts';
import type { MemberAccount } from '../../services/team/members.ts';
import type { AuditDeclaration } from '../../services/audit/record.ts';

/** Koa's context as a route sees it: with the path's parameters, as the router sets them. */
export type KoaContext = Context & { params: Record<string, string> };

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route: `key` an API key (Bearer, /v2/api); `session` the console's owner (session cookie, CSRF and
 * same-origin checks on unsafe methods); `public` anyone (the console's sign-in, health, docs, media, the share,
 * unsubscribe and claim pages). `widget` is the embeddable widget's public JSON API (/v2/widget): no key, no
 * cookie; a browser's POST from another site is refused; its routes are documented in their own OpenAPI document.
 */
export type Surface = 'key' | 'session' | 'widget' | 'public';

/** A key route's scope `(area, level)`, or any valid key (`/key/info`). */
export type Access = { area: Area; level: 'view' | 'manage' } | 'any_key';

/**
 * How a success is written: `envelope` `{ success, data, messages[, meta] }`; `flat` `{ success, messages, ...data }`
 * (send-ecard); `page` a console view through the page renderer (its failures as HTML pages too); `file` whatever
 * the handler returns as it is (public pages with their own headers, files, JSON probes, redirects).
 */
export type Answer = 'envelope' | 'flat' | 'page' | 'file';

/** The envelope a route's failures are written in (pages and files fail in the standard one, as before). */
export type Envelope = 'standard' | 'flat';

export type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

export type HandlerResult<R extends z.ZodType, M> = M extends z.ZodType ? { data: z.input<R>; meta: z.input<M> } : z.input<R>;

/** What a route's handler gets: its parsed contracts (a page's handler also gets the form's raw fields). */
export interface RouteInput<P, Q, B, H> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  headers: Parsed<H>;
}

/** A step-up a session route needs: `action` names it in the API's 403, `back` is where a page returns after it. */
export interface StepUpNeed {
  action: string;
  /** A console GET path (pages only; default: the page itself). */
  back?: string;
}

export interface KeyContext {
  services: ApiServices;
  caller: Caller;
  requestId: string;
  koa: KoaContext;
}

/** "Me" of the console: the signed-in user, the live account and the account the session works on now. */
export interface Me {
  user: User;
  live: Account;
  account: Account;
}

export interface SessionContext {
  services: ApiServices;
  /** The signed-in person's session (its account is the live one; `mode` picks the sandbox). */
  session: ConsoleSession;
  /** Their role in the live account, read for this request. */
  role: Role;
  /** Refuses (403 `role_forbidden`, or `owner_only`) unless the role meets `need`: for a need the input decides (a token's purpose). */
  requireRole: (need: RoleNeed) => void;
  /** The account the console works on now (live, or the sandbox twin). */
  account: Account;
  /** Who is signed in (another session, as a mode switch returns, reads its own account). */
  me: (session?: ConsoleSession) => Promise<Me>;
  /** Refuses (API: 403 step_up_required; page: 303 to the step-up page) unless the password was given in the last 10 minutes. */
  requireStepUp: (need: StepUpNeed) => void;
  requestId: string;
  koa: KoaContext;
}

export interface PublicContext {
  services: ApiServices;
  requestId: string;
  koa: KoaContext;
}

/** What a widget route's handler gets: the services and the visitor's client IP (the socket's, or the proxy's last hop). */
export interface WidgetContext {
  services: ApiServices;
  requestId: string;
  koa: KoaContext;
  clientIp: string;
}

/** The signed-in owner as every console page shows it (the layout's header, the CSRF token of its forms). */
export interface PageSession {
  session: ConsoleSession;
  account: Account;
  /** The layout shows only the sections this role may see. */
  role: Role;
  me: { owner_email: string; account_name: string; plan: string };
  /** Every account the person may manage, `current` the one open (the header's switch form shows when there are several). */
  accounts: Array<MemberAccount & { current: boolean }>;
  csrf: string;
  sandbox: boolean;
}

/**
 * What a page handler answers: a view (with a status), a 303 See Other, a download (an export), or a framed document: a preview another
 * console page shows in an iframe (a card page, an email, a widget), with its own CSP; the kit adds
 * `frame-ancestors 'self'` to it and keeps it out of every cache.
 */
export type PageResult =
  | { view: PageData; status?: number }
  | { seeOther: string }
  | { framed: { html: string; csp: string; status?: number } }
  | { download: { body: NodeJS.ReadableStream | string; type: string; filename: string } };
export const page = (view: PageData, status?: number): PageResult => (status === undefined ? { view } : { view, status });
export const seeOther = (location: string): PageResult => ({ seeOther: location });
/** `csp` without frame-ancestors (the kit adds `'self'`), e.g. the card page's own policy; `status` for a refused preview. */
export const framed = (html: string, csp: string, status?: number): PageResult => ({ framed: status === undefined ? { html, csp } : { html, csp, status } });

/** A file the owner saves (an export): streamed as it is made, `Content-Disposition: attachment`, never cached. */
export const download = (body: NodeJS.ReadableStream | string, type: string, filename: string): PageResult => ({ download: { body, type, filename } });

/** What a `file` handler answers (headers set on `koa` stay), or null: nothing here, the request goes on (404/405). */
export type FileResult = { status?: number; type?: string; body: unknown } | { seeOther: string } | null;

interface Contracts<P, Q, B, H> {
  method: HttpMethod;
  /** Koa-style path under the group's prefix, e.g. `/ecard/findOne/id/:id`. */
  path: string;
  summary?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Request headers by name (e.g. `Idempotency-Key`); a value outside its schema is 400 `invalid_<name>` with the schema's message. */
  headers?: H;
  /** Overrides BODY_LIMIT_BYTES for this route. */
  bodyLimitBytes?: number;
  /** Reads the body instead of the answer kind's reader (JSON, or a page's urlencoded form); `body` validates what it returns. */
  readBody?(koa: Context, limit: number): Promise<unknown>;
}

type Z = z.ZodType | undefined;

export interface KeyRouteDefinition<P extends Z = undefined, Q extends Z = undefined, B extends Z = undefined, H extends Z = undefined, R extends z.ZodType = z.ZodType, M extends Z = undefined>
  extends Contracts<P, Q, B, H> {
  surface?: 'key';
  summary: string;
  tags: string[];
  access: Access;
  /** What a success writes to the audit log (`area.verb`), or `{ none: why }`; every unsafe route declares it (test/audit/declarations.test.ts). */
  audit?: AuditDeclaration;
  answer?: 'envelope' | 'flat';
  /** The `data` of a success; for `flat`, the fields beside `success` and `messages` (an object schema). */
  response: R;
  /** Lists: the top-level `meta` of a success. */
  meta?: M;
  /** false keeps a route out of the OpenAPI document (test fixtures). */
  documented?: boolean;
  handler(input: RouteInput<P, Q, B, H>, context: KeyContext): Promise<HandlerResult<R, M>>;
}

export interface SessionRouteDefinition<P extends Z = undefined, Q extends Z = undefined, B extends Z = undefined, H extends Z = undefined, R extends z.ZodType = z.ZodType, M extends Z = undefined>
  extends Contracts<P, Q, B, H> {
  surface: 'session';
  answer?: 'envelope';
  summary: string;
  /** What the member's role must allow (decisions.md "Teams"); no default. */
  role: RoleNeed;
  /** What a success writes to the audit log (`area.verb`), or `{ none: why }`; every unsafe route declares it (test/audit/declarations.test.ts). */
  audit?: AuditDeclaration;
  /** A step-up every call needs (checked after validation); conditional ones call `requireStepUp`. */
  access?: { stepUp: string };
  response: R;
  meta?: M;
  handler(input: RouteInput<P, Q, B, H>, context: SessionContext): Promise<HandlerResult<R, M>>;
}

export interface PublicRouteDefinition<B extends Z = undefined, R extends z.ZodType = z.ZodType> extends Contracts<undefined, undefined, B, undefined> {
  surface: 'public';
  answer?: 'envelope';
  summary: string;
  /** The sign-in's double-submit CSRF check (the cookie's token in X-CSRF-Token or the form's `_csrf`). */
  csrf?: 'sign-in';
  response: R;
  handler(input: RouteInput<undefined, undefined, B, undefined>, context: PublicContext): Promise<z.input<R>>;
}

/** The embeddable widget's public API: JSON in the standard envelope (or flat, as send-ecard answers). */
export interface WidgetRouteDefinition<P extends Z = undefined, Q extends Z = undefined, B extends Z = undefined, R extends z.ZodType = z.ZodType, M extends Z = undefined>
  extends Contracts<P, Q, B, undefined> {
  surface: 'widget';
  answer?: 'envelope' | 'flat';
  summary: string;
  tags: string[];
  response: R;
  meta?: M;
  handler(input: RouteInput<P, Q, B, undefined>, context: WidgetContext): Promise<HandlerResult<R, M>>;
}

/** A console page of a signed-in owner: no session → 303 to sign-in; a POST is a form with the session's CSRF token. */
export interface SessionPageDefinition<P extends Z = undefined, Q extends Z = undefined, B extends Z = undefined> extends Contracts<P, Q, B, undefined> {
  surface: 'session';
  answer: 'page';
  /** What the member's role must allow (decisions.md "Teams"); no default. */
  role: RoleNeed;
  /** What a success writes to the audit log (`area.verb`), or `{ none: why }`; every unsafe route declares it (test/audit/declarations.test.ts). */
  audit?: AuditDeclaration;
  /** A step-up every call needs, and the page to come back to after it (default: this one). */
  access?: { stepUp: string; back?: string };
  /** The form's fields as `body`'s input (blank fields are usually "missing"). */
  fromForm?(form: Record<string, string>): unknown;
  /** The query as `query`'s input (default: blank fields dropped, as a GET form sends every field). */
  fromQuery?(query: Context['query']): unknown;
  handler(input: RouteInput<P, Q, B, undefined> & { form: Record<string, string>; raw: unknown }, context: SessionContext & { page: PageSession }): Promise<PageResult>;
}

/** A page without a session (the console's sign-in): HTML failures, the sign-in's CSRF on POST when `csrf` says so. */
export interface PublicPageDefinition extends Contracts<undefined, undefined, undefined, undefined> {
  surface: 'public';
  answer: 'page';
  csrf?: 'sign-in';
  handler(input: { form: Record<string, string> }, context: PublicContext): Promise<PageResult>;
}

/** A public answer the handler shapes itself (share, unsubscribe and claim pages, media, docs, probes). */
export interface FileRouteDefinition<P extends Z = undefined> extends Contracts<P, undefined, undefined, undefined> {
  surface: 'public';
  answer: 'file';
  handler(input: { params: Parsed<P> }, context: PublicContext): Promise<FileResult>;
}

type E = z.ZodType | undefined;
export type AnyKeyRoute = KeyRouteDefinition<E, E, E, E, z.ZodType, E>;
export type AnySessionRoute = SessionRouteDefinition<E, E, E, E, z.ZodType, E>;
export type AnyPublicRoute = PublicRouteDefinition<E, z.ZodType>;
export type AnySessionPage = SessionPageDefinition<E, E, E>;
export type AnyFileRoute = FileRouteDefinition<E>;
export type AnyWidgetRoute = WidgetRouteDefinition<E, E, E, z.ZodType, E>;

/** Any route, its types erased (handlers are methods, so specific routes fit). */
export type AnyRoute = AnyKeyRoute | AnySessionRoute | AnyPublicRoute | AnySessionPage | PublicPageDefinition | AnyFileRoute | AnyWidgetRoute;

export function defineRoute<P extends Z = undefined, Q extends Z = undefined, B extends Z = undefined, H extends Z = undefined, R extends z.ZodType = z.ZodType, M extends Z = undefined>(
  route: KeyRouteDefinition<P, Q, B, H, R, M>,
): KeyRouteDefinition<P, Q, B, H, R, M> {
  return route;
}

export function defineSessionRoute<P extends Z = undefined, Q extends Z = undefined, B extends Z = undefined, H extends Z = undefined, R extends z.ZodType = z.ZodType, M extends Z = undefined>(
  route: Omit<SessionRouteDefinition<P, Q, B, H, R, M>, 'surface'>,
): AnyRoute {
  return { surface: 'session', ...route } as unknown as AnySessionRoute;
}

export function definePublicRoute<B extends Z = undefined, R extends z.ZodType = z.ZodType>(route: Omit<PublicRouteDefinition<B, R>, 'surface'>): AnyRoute {
  return { surface: 'public', ...route } as unknown as AnyPublicRoute;
}

export function definePage<P extends Z = undefined, Q extends Z = undefined, B extends Z = undefined>(route: Omit<SessionPageDefinition<P, Q, B>, 'surface' | 'answer'>): AnyRoute {
  return { surface: 'session', answer: 'page', ...route } as unknown as AnySessionPage;
}

export function definePublicPage(route: Omit<PublicPageDefinition, 'surface' | 'answer'>): AnyRoute {
  return { surface: 'public', answer: 'page', ...route };
}

export function defineFile<P extends Z = undefined>(route: Omit<FileRouteDefinition<P>, 'surface' | 'answer'>): AnyRoute {
  return { surface: 'public', answer: 'file', ...route } as unknown as AnyFileRoute;
}

export function defineWidgetRoute<P extends Z = undefined, Q extends Z = undefined, B extends Z = undefined, R extends z.ZodType = z.ZodType, M extends Z = undefined>(
  route: Omit<WidgetRouteDefinition<P, Q, B, R, M>, 'surface'>,
): AnyWidgetRoute {
  return { surface: 'widget', ...route } as unknown as AnyWidgetRoute;
}

export const isWidgetRoute = (route: AnyRoute): route is AnyWidgetRoute => surfaceOf(route) === 'widget';

export const surfaceOf = (route: AnyRoute): Surface => route.surface ?? 'key';
export const answerOf = (route: AnyRoute): Answer => route.answer ?? 'envelope';
export const isKeyRoute = (route: AnyRoute): route is AnyKeyRoute => surfaceOf(route) === 'key';

/** `manage` allows writes and reads, `view` reads; the capability names are `<area>:read` / `<area>:write`. */
export function capabilityOf(access: Exclude<Access, 'any_key'>): string {
  return `${access.area}:${access.level === 'manage' ? 'write' : 'read'}`;
}
