// One log line per request: what was asked and answered, by which key; never a header, a body or a key.
import type { Middleware } from 'koa';
import type { Logger } from '../../lib/logger.ts';
import type { ApiState } from '../context.ts';

// A card page `/e/<id>`, an unsubscribe link `/u/<token>` and a gift's claim link `/g/<token>` are bearer secrets:
// their log line keeps the last 4 characters, as responses mask a claim link.
const SECRET_PATH = /^\/([egu])\/([^/]*)/;
export const loggedPath = (path: string) =>
  path.replace(SECRET_PATH, (_all, kind: string, token: string) => `/${kind}/****${token.length >= 12 ? token.slice(-4) : ''}`);

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
