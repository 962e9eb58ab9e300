// Gives every request an id (kept from X-Request-Id when it is a short safe token) and echoes it back.
import type { Middleware } from 'koa';
import type { ApiState } from '../context.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestId(): Middleware<ApiState> {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
