// The public eCard page of a send, `/e/<statVanityId>` (no key, not enveloped): HTTP only; the page itself comes
// from the send's snapshot (services/sends/share-page.ts).
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { ServiceContext } from '../services/context.ts';
import { sharePage } from '../services/sends/share-page.ts';
import type { ApiState } from './context.ts';

export function sharePageRouter(services: ServiceContext): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/e/:statVanityId', async (ctx) => {
    const nonce = randomBytes(16).toString('base64');
    const html = await sharePage(services, ctx.params.statVanityId ?? '', nonce);
    if (html === null) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'This eCard does not exist, or it has not been sent.';
      return;
    }
    // Media may come from anywhere over https; nothing else runs but the page's own nonce'd script and style.
    ctx.set('Content-Security-Policy', `default-src 'none'; img-src https: http:; media-src https: http:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  });
  return router;
}
