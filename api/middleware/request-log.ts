// One log line per request: what was asked and answered, by which key; never a header, a body or a key.
import type { Middleware } from 'koa';
import type { Logger } from '../../lib/logger.ts';
import type { ApiState } from '../context.ts';

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
          path: ctx.path,
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
