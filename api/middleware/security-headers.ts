// Headers every response carries, whatever answers it (a route, a page, a file, an error): no type sniffing, and
// over https (directly or, with TRUST_PROXY, as the proxy says) HSTS for a year.
import type { Middleware } from 'koa';
import type { ApiState } from '../context.ts';

export function securityHeaders(): Middleware<ApiState> {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000');
    await next();
  };
}
