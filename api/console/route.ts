// A console route: the same shape as a key API route (zod contracts, the standard envelope, a handler that gets
// the parsed input), but authenticated by the owner's session cookie instead of a key, and kept out of the
// public OpenAPI. `public` routes (sign-in) run without a session.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Account } from '../../models/Account.ts';
import type { ConsoleSession } from '../../models/ConsoleSession.ts';
import type { ApiServices } from '../context.ts';
import type { HandlerResult, HttpMethod } from '../route.ts';

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface ConsoleContext {
  services: ApiServices;
  /** The signed-in owner's session (its account is the live one; `mode` picks the sandbox). */
  session: ConsoleSession;
  /** The account the console works on now (live, or the sandbox twin). */
  account: Account;
  koa: Context;
}

export interface ConsoleRouteDefinition<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
  M extends z.ZodType | undefined = undefined,
> {
  method: HttpMethod;
  /** Koa-style path under /v2/console/api, e.g. `/keys/:id/rotate`. */
  path: string;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  meta?: M;
  bodyLimitBytes?: number;
  /** Reads the body instead of the JSON reader (a route that also takes an upload); `body` validates what it returns. */
  readBody?(koa: Context, limit: number): Promise<unknown>;
  handler(input: { params: Parsed<P>; query: Parsed<Q>; body: Parsed<B> }, context: ConsoleContext): Promise<HandlerResult<R, M>>;
}

export interface PublicConsoleRouteDefinition<B extends z.ZodType | undefined = undefined, R extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  path: string;
  summary: string;
  body?: B;
  response: R;
  handler(input: { body: Parsed<B> }, context: { services: ApiServices; koa: Context }): Promise<z.input<R>>;
}

export type AnyConsoleRoute =
  | ({ auth: 'session' } & ConsoleRouteDefinition<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, z.ZodType, z.ZodType | undefined>)
  | ({ auth: 'public' } & PublicConsoleRouteDefinition<z.ZodType | undefined, z.ZodType>);

export function defineConsoleRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
  M extends z.ZodType | undefined = undefined,
>(route: ConsoleRouteDefinition<P, Q, B, R, M>): AnyConsoleRoute {
  return { auth: 'session', ...(route as unknown as ConsoleRouteDefinition<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, z.ZodType, z.ZodType | undefined>) };
}

export function definePublicConsoleRoute<B extends z.ZodType | undefined = undefined, R extends z.ZodType = z.ZodType>(route: PublicConsoleRouteDefinition<B, R>): AnyConsoleRoute {
  return { auth: 'public', ...(route as unknown as PublicConsoleRouteDefinition<z.ZodType | undefined, z.ZodType>) };
}
