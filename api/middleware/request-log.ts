// One log line per request: what was asked and answered, by which key; never a header, a body or a key.
import type { Middleware } from 'koa';
import type { Logger } from '../../lib/logger.ts';
import type { ApiState } from '../context.ts';

// A gift's claim link `/g/<token>` is a bearer secret: its log line keeps the last 4 characters, as responses mask it.
const CLAIM_PATH = /^\/g\/([^/]*)/;
export const loggedPath = (path: string) => path.replace(CLAIM_PATH, (_all, token: string) => `/g/****${token.length >= 12 ? token.slice(-4) : ''}`);

export function requestLog(logger: Logger): Middleware<ApiState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const caller = ctx.state.authenticated;
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: loggedPath(ctx.path),
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          keyId: caller?.apiKey.id,
          accountId: caller?.account.id,
        },
        'request',
      );
    }
  };
}
