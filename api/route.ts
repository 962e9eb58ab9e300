// The one way to write an endpoint: a route definition names its method, path, access, envelope and zod
// contracts; the mount step turns it into `scope → body → validate → handler → envelope` and documents it.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Area } from '../models/ApiKey.ts';
import type { ApiServices, Caller } from './context.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A scope `(area, level)`, or any valid key (`/key/info`). */
export type Access = { area: Area; level: 'view' | 'manage' } | 'any_key';

/** `standard`: `{ success, data, messages[, meta] }`; `flat`: `{ success, messages, ...data }` (send-ecard). */
export type Envelope = 'standard' | 'flat';

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

export type HandlerResult<R extends z.ZodType, M> = M extends z.ZodType ? { data: z.input<R>; meta: z.input<M> } : z.input<R>;

export interface HandlerContext {
  services: ApiServices;
  caller: Caller;
  requestId: string;
  koa: Context;
}

export interface RouteDefinition<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
  M extends z.ZodType | undefined = undefined,
> {
  method: HttpMethod;
  /** Koa-style path under /v2/api, e.g. `/ecard/findOne/id/:id`. */
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  envelope?: Envelope;
  params?: P;
  query?: Q;
  body?: B;
  /** The `data` of a success; for `flat`, the fields beside `success` and `messages` (an object schema). */
  response: R;
  /** Lists: the top-level `meta` of a success. */
  meta?: M;
  /** Overrides BODY_LIMIT_BYTES for this route. */
  bodyLimitBytes?: number;
  /** false keeps a route out of the OpenAPI document (test fixtures). */
  documented?: boolean;
  handler(input: { params: Parsed<P>; query: Parsed<Q>; body: Parsed<B> }, context: HandlerContext): Promise<HandlerResult<R, M>>;
}

/** Any route, its types erased (handlers are methods, so specific routes fit). */
export type AnyRoute = RouteDefinition<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, z.ZodType, z.ZodType | undefined>;

export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
  M extends z.ZodType | undefined = undefined,
>(route: RouteDefinition<P, Q, B, R, M>): RouteDefinition<P, Q, B, R, M> {
  return route;
}

/** `manage` allows writes and reads, `view` reads; the capability names are `<area>:read` / `<area>:write`. */
export function capabilityOf(access: Exclude<Access, 'any_key'>): string {
  return `${access.area}:${access.level === 'manage' ? 'write' : 'read'}`;
}
