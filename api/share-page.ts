// The public eCard page of one recipient, `/e/<pageId>` (no key, not enveloped), and its open action
// `POST /e/<pageId>/open`: HTTP only; the page comes from the send's snapshot (services/sends/share-page.ts).
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ServiceContext } from '../services/context.ts';
import { openPage, sharePage } from '../services/sends/share-page.ts';
import type { ApiState } from './context.ts';

const NOT_FOUND = 'This eCard does not exist, or it has not been sent.';

function notFound(ctx: Context): void {
  ctx.status = 404;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/plain';
  ctx.body = NOT_FOUND;
}

export function sharePageRouter(services: ServiceContext): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/e/:pageId', async (ctx) => {
    const nonce = randomBytes(16).toString('base64');
    const html = await sharePage(services, ctx.params.pageId ?? '', nonce);
    if (html === null) return notFound(ctx);
    // Media may come from anywhere over https; nothing else runs but the page's own nonce'd script and style,
    // which may post the open action to this service (a fetch, or the form without JavaScript).
    ctx.set(
      'Content-Security-Policy',
      `default-src 'none'; img-src https: http:; media-src https: http:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    );
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  });
  // A person opened the card (the envelope's gesture, or seen for 2 s where it shows open at once). No body.
  router.post('/e/:pageId/open', async (ctx) => {
    const pageId = ctx.params.pageId ?? '';
    if (!(await openPage(services, pageId))) return notFound(ctx);
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`/e/${pageId}`);
  });
  return router;
}
