// The public pages' rate limit (/e/, /g/, /u/, /media/, and the widget's /w/, /embed/ and GETs of /v2/widget): per
// (client IP, page kind) and minute, kept in this process's memory, GETs and POSTs counted apart; past it a small 429
// page with Retry-After. `POST /u/<token>` (a mail provider's one-click unsubscribe, RFC 8058) is never limited, nor
// are the widget's POSTs (its sends and verification have their own per-IP windows and answer in the API's JSON).
import type { Middleware } from 'koa';
import type { ApiState } from '../context.ts';

const PAGE_KINDS = new Set(['e', 'g', 'u', 'media', 'w', 'embed']);
/** The widget's pages and API: only their GETs are limited here. */
const GET_ONLY = new Set(['w', 'embed', 'widget-api']);

const kindOf = (path: string) => (path === '/v2/widget' || path.startsWith('/v2/widget/') ? 'widget-api' : (path.split('/')[1] ?? ''));
const WINDOW_MS = 60_000;

const TOO_MANY =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Too many requests</title></head>' +
  '<body><p>Too many requests from your address. Please wait a minute and try again.</p></body></html>';

export function publicPageLimit(limits: { pagesPerMinute: number; postsPerMinute: number }, now: () => number = Date.now): Middleware<ApiState> {
  // One fixed window for every key: the map is dropped whole when the minute turns, so it holds one minute's callers.
  let windowStart = 0;
  let counts = new Map<string, number>();
  return async (ctx, next) => {
    const kind = kindOf(ctx.path);
    const post = ctx.method === 'POST';
    if (!(PAGE_KINDS.has(kind) || kind === 'widget-api') || (post && (kind === 'u' || GET_ONLY.has(kind))) || !['GET', 'HEAD', 'POST'].includes(ctx.method)) {
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
      if (kind === 'widget-api') {
        // The widget API answers in its JSON envelope, as its other failures.
        ctx.body = { success: false, data: null, messages: ['Too many requests from your address. Please wait a minute and try again.'], code: 'rate_limited', request_id: ctx.state.requestId };
        return;
      }
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = TOO_MANY;
      return;
    }
    await next();
  };
}
