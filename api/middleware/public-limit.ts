// The public pages' rate limit (/e/, /g/, /u/, /media/): per (client IP, page kind) and minute, kept in this process's
// memory, GETs and POSTs counted apart; past it a small 429 page with Retry-After. `POST /u/<token>` (a mail
// provider's one-click unsubscribe, RFC 8058) is never limited.
import type { Middleware } from 'koa';
import type { ApiState } from '../context.ts';

const PAGE_KINDS = new Set(['e', 'g', 'u', 'media']);
const WINDOW_MS = 60_000;

const TOO_MANY =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Too many requests</title></head>' +
  '<body><p>Too many requests from your address. Please wait a minute and try again.</p></body></html>';

export function publicPageLimit(limits: { pagesPerMinute: number; postsPerMinute: number }, now: () => number = Date.now): Middleware<ApiState> {
  // One fixed window for every key: the map is dropped whole when the minute turns, so it holds one minute's callers.
  let windowStart = 0;
  let counts = new Map<string, number>();
  return async (ctx, next) => {
    const kind = ctx.path.split('/')[1] ?? '';
    const post = ctx.method === 'POST';
    if (!PAGE_KINDS.has(kind) || (post && kind === 'u') || !['GET', 'HEAD', 'POST'].includes(ctx.method)) {
      await next();
      return;
    }
    const at = now();
    if (at - windowStart >= WINDOW_MS) {
      windowStart = at - (at % WINDOW_MS);
      counts = new Map();
    }
    const key = `${ctx.ip} ${kind} ${post ? 'post' : 'get'}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count > (post ? limits.postsPerMinute : limits.pagesPerMinute)) {
      ctx.status = 429;
      ctx.set('Retry-After', String(Math.max(1, Math.ceil((windowStart + WINDOW_MS - at) / 1000))));
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = TOO_MANY;
      return;
    }
    await next();
  };
}
