// Per-key rate limits of the key's plan; every authenticated response carries the X-RateLimit headers.
import type { Middleware } from 'koa';
import type { Config } from '../../lib/config.ts';
import { rateLimited } from '../../lib/errors.ts';
import type { RateLimiter } from '../../services/rate-limits.ts';
import type { ApiState } from '../context.ts';

export function rateLimit(limiter: RateLimiter, limits: Config['rateLimits']): Middleware<ApiState> {
  return async (ctx, next) => {
    const { apiKey, account } = ctx.state.authenticated!;
    const decision = await limiter.consume(apiKey.id, limits[account.plan]);
    ctx.set('X-RateLimit-Limit', String(decision.limit));
    ctx.set('X-RateLimit-Remaining', String(decision.remaining));
    ctx.set('X-RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw rateLimited(`Rate limit of ${decision.limit} requests exceeded; retry in ${decision.resetSeconds} s`, {
        headers: { 'Retry-After': String(decision.resetSeconds) },
      });
    }
    ctx.state.caller = { apiKey, account, rate: decision };
    await next();
  };
}
